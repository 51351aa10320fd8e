import { PgBoss, fromPglite, type ConstructorOptions, type JobWithMetadata } from 'pg-boss';
import { asSystem } from '../lib/audit-context';
import type { z } from 'zod';
import { CompiledQuery } from 'kysely';
import type { Db, JobConnection } from '../db/database';

export interface JobLog {
  info(obj: unknown, msg: string): void;
  warn(obj: unknown, msg: string): void;
  error(obj: unknown, msg: string): void;
}

/** One kind of background job: its payload, how many run at once here, and what happens when it fails for good. */
export interface JobDefinition<T> {
  name: string;
  /** The payload, checked before the handler sees it: a job row is data from the database, not a typed call. */
  schema: z.ZodType<T>;
  /** Jobs of this kind this process runs at once; 0: it only sends them (another process works them). */
  concurrency: number;
  /**
   * At most this many jobs of one group (the `group` they were sent with: an enterprise) run at once in this process,
   * of its `concurrency`: one tenant's backlog cannot take every worker from the others. Unset: no limit.
   */
  groupConcurrency?: number;
  /** Attempts after the first one. */
  retryLimit: number;
  /** Seconds before a retry (default 1); with `retryBackoff`, doubled at each attempt (a relay that is down). */
  retryDelaySeconds?: number;
  retryBackoff?: boolean;
  /** How long a finished job's row (and its payload) is kept; default pg-boss's 7 days. */
  deleteAfterSeconds?: number;
  /** An attempt still running after this long is taken as dead (its server died) and retried or failed. */
  expireInSeconds: number;
  handler(data: T): Promise<void>;
  /** Called once, after the last attempt threw; what it records is what users see of the failure. */
  onFinalFailure(data: T, error: unknown): Promise<void>;
}

/** States of a job that may still run. */
const PENDING_STATES = new Set(['created', 'retry', 'active']);

/**
 * A background-job queue in the application's own database (pg-boss): jobs survive restarts, several API processes
 * share the work, and no other service is needed. The same code runs on PostgreSQL and on embedded PGlite (ADR 9).
 * Define the jobs, then `start()`; `stop()` lets running jobs finish first.
 */
export class JobQueue {
  private readonly definitions = new Map<string, JobDefinition<never>>();
  private boss: PgBoss | null = null;

  constructor(
    private readonly connection: JobConnection,
    private readonly log: JobLog,
  ) {}

  define<T>(definition: JobDefinition<T>): void {
    if (this.boss) throw new Error(`job ${definition.name} defined after the queue started`);
    this.definitions.set(definition.name, definition as unknown as JobDefinition<never>);
  }

  async start(): Promise<void> {
    if (this.boss) return;
    const boss = new PgBoss(this.bossOptions());
    boss.on('error', (err) => this.log.error({ err }, 'job queue error'));
    boss.on('warning', (warning) => this.log.warn({ warning }, 'job queue warning'));
    await boss.start();
    this.boss = boss;
    for (const definition of this.definitions.values()) {
      const options = {
        retryLimit: definition.retryLimit,
        retryDelay: definition.retryDelaySeconds ?? 1,
        retryBackoff: definition.retryBackoff ?? false,
        ...(definition.deleteAfterSeconds === undefined ? {} : { deleteAfterSeconds: definition.deleteAfterSeconds }),
        expireInSeconds: definition.expireInSeconds,
        // Wake a worker the moment a job is sent instead of at its next poll.
        notify: true,
      };
      if (await boss.getQueue(definition.name)) await boss.updateQueue(definition.name, options);
      else await boss.createQueue(definition.name, options);
      // One worker per slot, each told to look again at once after a job (below): pg-boss otherwise waits out the
      // poll between fetches unless a NOTIFY comes, one job a second per worker once the senders fall silent, and a
      // backlog (a burst of alarms, a sweep) would drain at that pace instead of the handlers'.
      for (let slot = 0; slot < definition.concurrency; slot++) {
        let workerId = '';
        workerId = await boss.work(
          definition.name,
          {
            localConcurrency: 1,
            // Counted in this process (pg-boss puts a job over the count back at once). Its database-wide count
            // (`groupConcurrency`) is read by concurrent fetches, each in its own snapshot: workers woken together
            // took three jobs of one group under a limit of two (alarm-fairness.test.ts caught it).
            ...(definition.groupConcurrency === undefined ? {} : { localGroupConcurrency: definition.groupConcurrency }),
            batchSize: 1,
            includeMetadata: true,
            // NOTIFY wakes workers for new jobs; the poll only catches retries and jobs of a lost notification.
            pollingIntervalSeconds: 1,
            notifyPollingIntervalSeconds: 1,
          },
          async (jobs: JobWithMetadata<unknown>[]) => {
            try {
              for (const job of jobs) await this.run(definition, job);
            } finally {
              // A job was there: another may be. An empty fetch does not come here, so an idle queue still waits.
              boss.notifyWorker(workerId);
            }
          },
        );
      }
    }
  }

  /**
   * Queues a job; `key` names what it is about, so `hasPending` can find it later. Workers take the highest
   * `priority` first (default 0), then the oldest; `startAfterSeconds` holds it back that long (a retry on a
   * schedule of the caller's own, e.g. webhooks').
   */
  async send<T extends object>(name: string, data: T, key: string, options: { priority?: number; startAfterSeconds?: number } = {}): Promise<void> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    definition.schema.parse(data);
    await this.started().send(name, data, {
      singletonKey: key,
      priority: options.priority ?? 0,
      ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    });
  }

  /**
   * Queues several jobs of one kind in one statement (pg-boss `insert`, the queue's own retry and expiry settings):
   * what one event sends at once, e.g. the deliveries of an alarm. Each job's `key` as in `send`; `group` names whose
   * work it is (the enterprise) for the definition's `groupConcurrency`; `within`, a transaction the jobs are queued
   * in, with the rows they are about.
   */
  async sendMany<T extends object>(
    name: string,
    jobs: readonly { data: T; key: string; priority?: number; group?: string }[],
    options: { within?: Db } = {},
  ): Promise<void> {
    const definition = this.definitions.get(name);
    if (!definition) throw new Error(`unknown job ${name}`);
    if (jobs.length === 0) return;
    for (const job of jobs) definition.schema.parse(job.data);
    await this.started().insert(
      name,
      jobs.map((job) => ({ data: job.data, singletonKey: job.key, priority: job.priority ?? 0, ...(job.group ? { group: { id: job.group } } : {}) })),
      options.within ? { db: executorOf(options.within) } : {},
    );
  }

  /** Whether a job of this kind and key is waiting, being retried or running. */
  async hasPending(name: string, key: string): Promise<boolean> {
    const jobs = await this.started().findJobs(name, { key });
    return jobs.some((job) => PENDING_STATES.has(job.state));
  }

  /** The jobs of this kind and key, oldest first: their state and how many times each was retried (diagnostics). */
  async jobsFor(name: string, key: string): Promise<Array<{ state: string; retryCount: number }>> {
    const jobs = await this.started().findJobs(name, { key });
    return jobs
      .sort((a, b) => a.createdOn.getTime() - b.createdOn.getTime())
      .map((job) => ({ state: job.state, retryCount: job.retryCount }));
  }

  /**
   * Jobs ready to run and not yet taken, per defined queue (the metrics' job-queue depth). pg-boss keeps these counts
   * in its queue table, refreshed by its monitor (every minute): reading them costs one small query, never a count
   * over the job table at each scrape.
   */
  async depths(): Promise<{ queue: string; depth: number }[]> {
    const queues = await this.started().getQueues([...this.definitions.keys()]);
    return queues.map((q) => ({ queue: q.name, depth: q.readyCount }));
  }

  /** Stops fetching, waits for running jobs (up to a limit), closes the queue's connections. */
  async stop(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    this.boss = null;
    await boss.stop({ graceful: true, timeout: 30_000, close: true });
  }

  private started(): PgBoss {
    if (!this.boss) throw new Error('job queue not started');
    return this.boss;
  }

  private bossOptions(): ConstructorOptions {
    // No cron schedules: the timekeeper would only add a timer and queries.
    const common = { schedule: false, useListenNotify: true } as const;
    if (this.connection.kind === 'pglite') {
      return { ...common, backend: 'pglite', db: fromPglite(this.connection.pglite) };
    }
    // Its own small pool: workers, the maintenance pass and a LISTEN session; the app's pool stays for requests.
    const workers = [...this.definitions.values()].reduce((n, d) => n + d.concurrency, 0);
    return { ...common, connectionString: this.connection.connectionString, max: workers + 2, application_name: 'sentinela-jobs' };
  }

  private async run<T>(definition: JobDefinition<T>, job: JobWithMetadata<unknown>): Promise<void> {
    const parsed = definition.schema.safeParse(job.data);
    if (!parsed.success) {
      // It would fail the same way on every attempt: log it and let it complete.
      this.log.error({ job: job.id, name: job.name, issues: parsed.error.issues }, 'job payload refused');
      return;
    }
    try {
      // A job's writes are the system's, named by the job (ADR 0060).
      await asSystem(`job:${definition.name}`, () => definition.handler(parsed.data));
    } catch (error) {
      const last = job.retryCount >= job.retryLimit;
      this.log.warn({ err: error, job: job.id, name: job.name, attempt: job.retryCount + 1, last }, 'job attempt failed');
      if (last) {
        try {
          await definition.onFinalFailure(parsed.data, error);
        } catch (err) {
          this.log.error({ err, job: job.id, name: job.name }, 'recording a job failure failed');
        }
      }
      throw error;
    }
  }
}

/**
 * pg-boss's statements run on a Kysely transaction (`sendMany`'s `within`): jobs queued with the rows they are about
 * commit or roll back together, so a failure between the two can neither leave rows without their jobs nor jobs
 * without their rows.
 */
function executorOf(trx: Db) {
  return {
    executeSql: async (text: string, values?: unknown[]) => {
      const result = await trx.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows as never[] };
    },
  };
}
