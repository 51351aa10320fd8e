import { Worker } from 'node:worker_threads';
import { AppError } from '../../../lib/errors';
import { REPORT_SERVER_MESSAGES as M } from '../messages';
import type { ReadAnswer, ReadRequest } from './reader-thread';
import type { SheetLimits, SheetLines } from './sheet-reader';
import type { ZipEntry } from './zip-directory';

interface Waiting {
  request: ReadRequest;
  resolve(result: SheetLines): void;
  reject(error: Error): void;
}

/**
 * Worker threads that read uploaded spreadsheets (ADR 13). Inflating and parsing an upload is CPU and memory the
 * sender chooses: on the main thread a hostile file stalled every request for seconds and grew the heap by
 * gigabytes. Here each thread reads one file at a time under a heap limit of its own; a thread that dies or runs out
 * of memory answers a 413 for the file it was reading and is replaced by the next read. Uploads beyond the threads
 * wait their turn, so the cost of a burst of uploads is at most `size` cores.
 */
export class SpreadsheetReaderPool {
  private readonly threads = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Waiting>();
  private readonly waiting: Waiting[] = [];
  private closed = false;

  constructor(
    private readonly size: number,
    private readonly memoryMb: number,
  ) {}

  /** Reads the report rows of a checked archive. The bytes are copied into the thread, the caller's stay as they are. */
  read(data: Buffer, entries: ZipEntry[], limits: SheetLimits): Promise<SheetLines> {
    if (this.closed) return Promise.reject(new Error('spreadsheet reader pool closed'));
    // A copy of its own to transfer: a small Buffer may share its memory with other Buffers (Node's pool).
    const copy = new Uint8Array(data);
    return new Promise((resolve, reject) => {
      this.waiting.push({ request: { data: copy, entries, limits }, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('spreadsheet reader pool closed'));
    await Promise.all([...this.threads].map((t) => t.terminate()));
  }

  private pump(): void {
    while (this.waiting.length > 0) {
      let thread = this.idle.pop();
      if (!thread) {
        if (this.threads.size >= Math.max(1, this.size)) return;
        thread = this.spawn();
      }
      const next = this.waiting.shift()!;
      this.busy.set(thread, next);
      thread.ref();
      thread.postMessage(next.request, [next.request.data.buffer as ArrayBuffer]);
    }
  }

  private spawn(): Worker {
    const thread = new Worker(new URL('./reader-thread.mjs', import.meta.url), {
      resourceLimits: { maxOldGenerationSizeMb: this.memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.floor(this.memoryMb / 8)) },
    });
    this.threads.add(thread);
    thread.on('message', (answer: ReadAnswer) => {
      const job = this.busy.get(thread);
      this.busy.delete(thread);
      // An idle thread must not keep the process alive on its own.
      thread.unref();
      this.idle.push(thread);
      if (job) {
        if (answer.ok) job.resolve(answer.result);
        else if ('refusal' in answer) job.reject(new AppError(answer.refusal.code, answer.refusal.message));
        else job.reject(Object.assign(new Error(answer.error.message), { stack: answer.error.stack }));
      }
      this.pump();
    });
    thread.on('error', (error) => this.lose(thread, error));
    thread.on('exit', (code) => this.lose(thread, new Error(`spreadsheet reader thread exited (code ${code})`)));
    return thread;
  }

  /** A thread died (its heap limit, most likely): the file it read gets a 413, the next read a new thread. */
  private lose(thread: Worker, error: Error): void {
    if (!this.threads.delete(thread)) return;
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    const job = this.busy.get(thread);
    this.busy.delete(thread);
    job?.reject(Object.assign(new AppError('PAYLOAD_TOO_LARGE', M.excelTooHeavy), { cause: error }));
    if (!this.closed) this.pump();
  }
}
