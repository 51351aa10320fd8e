import { createHash } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { AppConfig } from '../../config/config';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import type { PdfTimestamp } from '../../reports/signing/pdf-timestamps';
import { addDocumentTimestamp } from '../../reports/signing/sign-pdf';
import type { Timestamper } from '../../reports/signing/tsa-client';
import type { RenderedTimestamp } from './render/render-task';
import { ReportStatus } from '@sentinela/contract';
import { findReport, markTimestampFailed, recordDocumentTimestamp, type ReportRow, type TimestampColumns } from './repository';
import type { ReportStorage } from './storage';

export const REPORT_TIMESTAMP_JOB = 'report-timestamp';
export const ReportTimestampPayload = z.object({ reportId: z.uuid() });
export type ReportTimestampPayload = z.infer<typeof ReportTimestampPayload>;

/** Attempts at a missing timestamp after the first: with the delay doubling from REPORT_TSA_RETRY_SECONDS (300 s), about 14 days. */
const RETRIES = 12;

/** What the validator says of a file's timestamp (contract `ReportTimestamp`). */
export interface TimestampAnswer {
  status: 'stamped' | 'invalid' | 'pending' | 'later' | 'none';
  kind: 'signature' | 'document' | null;
  time: string | null;
  authority: string | null;
}

/**
 * RFC 3161 timestamps of the stored reports (ADR 79). A report's PDF is signed with a signature timestamp when the
 * TSA answers (PAdES B-T); when it does not, the report is still generated, recorded `pending`, and this job adds a
 * document timestamp to the stored file in an incremental update — the first signature's bytes stay as they were,
 * and a copy downloaded before still validates (its SHA-256 is kept as `unstamped_sha256`).
 */
export class ReportTimestamps {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly config: AppConfig,
    private readonly queue: JobQueue,
    private readonly storage: ReportStorage,
    private readonly log: JobLog,
    private readonly timestamper: Timestamper | undefined,
  ) {}

  define(): void {
    this.queue.define<ReportTimestampPayload>({
      name: REPORT_TIMESTAMP_JOB,
      schema: ReportTimestampPayload,
      concurrency: this.config.reportWorkers > 0 ? 1 : 0,
      retryLimit: RETRIES,
      retryDelaySeconds: this.config.reportTsaRetrySeconds,
      retryBackoff: true,
      expireInSeconds: 10 * 60,
      handler: ({ reportId }) => this.addMissing(reportId),
      onFinalFailure: async ({ reportId }, error) => {
        this.log.error({ err: error, report: reportId }, 'report left without a timestamp: the TSA failed at every attempt');
        await markTimestampFailed(this.db, reportId);
      },
    });
  }

  /** The columns a generated report records of its signature's timestamp. */
  columns(timestamp: RenderedTimestamp): TimestampColumns {
    switch (timestamp.status) {
      case 'off':
        return { timestamp_status: null, timestamp_at: null, timestamp_authority: null };
      case 'signature':
        return { timestamp_status: 'signature', timestamp_at: new Date(timestamp.time), timestamp_authority: timestamp.authority };
      case 'missing':
        return { timestamp_status: 'pending', timestamp_at: null, timestamp_authority: null };
    }
  }

  /** After a report was recorded: a missing timestamp is asked again later. */
  async afterGeneration(reportId: string, timestamp: RenderedTimestamp): Promise<void> {
    if (timestamp.status !== 'missing') return;
    this.log.warn({ report: reportId, reason: timestamp.reason }, 'report signed without a timestamp; a document timestamp will be added');
    await this.queue.send<ReportTimestampPayload>(REPORT_TIMESTAMP_JOB, { reportId }, reportId, { startAfterSeconds: this.config.reportTsaRetrySeconds });
  }

  /**
   * A report job that runs again for a report already generated (its first attempt recorded the file, then failed
   * to queue the timestamp job: a server stopping in between) queues it now, once.
   */
  async ensureQueued(report: Pick<ReportRow, 'id' | 'status' | 'timestamp_status'>): Promise<void> {
    if (report.status !== ReportStatus.Generated || report.timestamp_status !== 'pending') return;
    if (await this.queue.hasPending(REPORT_TIMESTAMP_JOB, report.id)) return;
    await this.queue.send<ReportTimestampPayload>(REPORT_TIMESTAMP_JOB, { reportId: report.id }, report.id, { startAfterSeconds: this.config.reportTsaRetrySeconds });
  }

  /** At start: every `pending` report without a waiting job gets one (a process stopped between recording and queueing). */
  async requeuePending(): Promise<void> {
    const pending = await this.db
      .selectFrom('reports')
      .select(['id', 'status', 'timestamp_status'])
      .where('timestamp_status', '=', 'pending')
      .where('status', '=', ReportStatus.Generated)
      .limit(1000)
      .execute();
    for (const report of pending) await this.ensureQueued(report);
  }

  /** The job: a document timestamp on the stored file of a `pending` report. Throws (the job retries) when the TSA fails. */
  async addMissing(reportId: string): Promise<void> {
    const report = await findReport(this.db, reportId);
    if (!report || report.status !== ReportStatus.Generated || report.timestamp_status !== 'pending') return;
    if (!report.file_path || !report.sha256 || report.file_removed_at) return;
    if (!this.timestamper) {
      // REPORT_TSA_URL was removed since: nothing to ask.
      await markTimestampFailed(this.db, reportId);
      return;
    }
    const original = await this.storage.read(report.file_path);
    if (createHash('sha256').update(original).digest('hex') !== report.sha256) {
      this.log.error({ report: reportId }, 'stored report file does not match its SHA-256; no timestamp added');
      await markTimestampFailed(this.db, reportId);
      return;
    }
    const { data, info } = await addDocumentTimestamp(original, this.timestamper);
    const file = this.storage.newFile(report.id, report.type, this.clock.now());
    await mkdir(path.dirname(file.absolute), { recursive: true });
    const partial = `${file.absolute}.part`;
    await writeFile(partial, data);
    await rename(partial, file.absolute);
    const recorded = await recordDocumentTimestamp(this.db, report.id, {
      fromSha256: report.sha256,
      path: file.relative,
      size: data.length,
      sha256: createHash('sha256').update(data).digest('hex'),
      time: info.time,
      authority: info.authority,
    });
    await this.storage.remove(recorded ? report.file_path : file.relative);
  }

  /** What the validator answers of an uploaded report's timestamps (read from its bytes) and of the stored report. */
  answer(stamps: PdfTimestamp[], report: ReportRow | null, uploadedSha256: string): TimestampAnswer {
    const answer = fileTimestampAnswer(stamps);
    if (answer.status !== 'none' || !report) return answer;
    if (report.timestamp_status === 'pending') return { status: 'pending', kind: null, time: null, authority: null };
    if (report.timestamp_status === 'document' && report.unstamped_sha256 === uploadedSha256) {
      // This copy was downloaded before the document timestamp was added: the stored file has it.
      return { status: 'later', kind: 'document', time: report.timestamp_at?.toISOString() ?? null, authority: report.timestamp_authority };
    }
    return answer;
  }
}

/** A file's own timestamps: the first valid one (a signature timestamp before a document timestamp), else a broken one, else none. */
export function fileTimestampAnswer(stamps: PdfTimestamp[]): TimestampAnswer {
  const ordered = [...stamps].sort((a, b) => (a.kind === b.kind ? a.time.getTime() - b.time.getTime() : a.kind === 'signature' ? -1 : 1));
  const valid = ordered.find((s) => s.valid);
  if (valid) return { status: 'stamped', kind: valid.kind, time: valid.time.toISOString(), authority: valid.authority };
  const broken = ordered[0];
  if (broken) return { status: 'invalid', kind: broken.kind, time: broken.time.toISOString(), authority: broken.authority };
  return { status: 'none', kind: null, time: null, authority: null };
}
