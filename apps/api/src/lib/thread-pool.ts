import { Worker, type Transferable, type WorkerOptions } from 'node:worker_threads';

export interface ThreadPoolOptions<Request, Answer, Result> {
  /** Named in the errors of a closed pool or a thread that exited. */
  name: string;
  /** The thread's entry (an .mjs that registers tsx and imports the TypeScript thread). */
  entry: URL;
  /** Most threads at once; tasks beyond them wait their turn. */
  size: number;
  /** Options of each new thread (resource limits, workerData). */
  workerOptions?: () => WorkerOptions;
  /** Buffers moved into the thread instead of copied. */
  transfer?: (request: Request) => readonly Transferable[];
  /** The thread's answer as the task's result, or the error it fails with. */
  settle: (answer: Answer) => Result | Error;
  /** The error of a task whose thread died under it (by default the thread's own). */
  lost?: (cause: Error) => Error;
}

interface Waiting<Request, Result> {
  request: Request;
  resolve(result: Result): void;
  reject(error: Error): void;
}

/**
 * Worker threads that run one task at a time each, for work that would stall the event loop (rendering and signing
 * reports, reading uploaded spreadsheets). Threads start on first use (or `warm()`), an idle thread does not keep the
 * process alive, and a thread that dies fails only the task it was running and is replaced by the next task.
 */
export class ThreadPool<Request, Answer, Result> {
  private readonly threads = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Waiting<Request, Result>>();
  private readonly waiting: Waiting<Request, Result>[] = [];
  private closed = false;

  constructor(private readonly options: ThreadPoolOptions<Request, Answer, Result>) {}

  run(request: Request): Promise<Result> {
    if (this.closed) return Promise.reject(new Error(`${this.options.name} pool closed`));
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      this.pump();
    });
  }

  /** Starts every thread now: a thread's start (loading the sources and libraries) is better paid before a burst. */
  warm(): void {
    while (!this.closed && this.threads.size < this.limit) {
      const thread = this.spawn();
      thread.unref();
      this.idle.push(thread);
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error(`${this.options.name} pool closed`));
    await Promise.all([...this.threads].map((t) => t.terminate()));
  }

  private get limit(): number {
    return Math.max(1, this.options.size);
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let thread = this.idle.pop();
      if (!thread) {
        if (this.threads.size >= this.limit) return;
        thread = this.spawn();
      }
      const next = this.waiting.shift()!;
      this.busy.set(thread, next);
      thread.ref();
      thread.postMessage(next.request, this.options.transfer?.(next.request));
    }
  }

  private spawn(): Worker {
    const thread = new Worker(this.options.entry, this.options.workerOptions?.());
    this.threads.add(thread);
    thread.on('message', (answer: Answer) => {
      const job = this.busy.get(thread);
      this.busy.delete(thread);
      // An idle thread must not keep the process alive on its own.
      thread.unref();
      this.idle.push(thread);
      if (job) {
        const settled = this.options.settle(answer);
        if (settled instanceof Error) job.reject(settled);
        else job.resolve(settled);
      }
      this.pump();
    });
    thread.on('error', (error) => this.lose(thread, error));
    thread.on('exit', (code) => this.lose(thread, new Error(`${this.options.name} thread exited (code ${code})`)));
    return thread;
  }

  private lose(thread: Worker, error: Error): void {
    if (!this.threads.delete(thread)) return;
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    const job = this.busy.get(thread);
    this.busy.delete(thread);
    job?.reject(this.options.lost ? this.options.lost(error) : error);
    if (!this.closed) this.pump();
  }
}
