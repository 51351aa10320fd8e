import { Worker } from 'node:worker_threads';
import type { RenderAnswer, RenderRequest } from './render-thread';
import type { SigningIdentity } from '../../../reports/signing/certificate';
import { transferList, type RenderResult, type RenderTask } from './render-task';

interface Waiting {
  task: RenderTask;
  resolve(result: RenderResult): void;
  reject(error: Error): void;
}

/** A render failed inside its thread; the message is the renderer's own (for the log, not for users). */
export class RenderError extends Error {
  constructor(message: string, readonly threadStack?: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/**
 * Worker threads that render and sign reports. Drawing a PDF of 10,000 readings and signing it is about half a
 * second of CPU: on the main thread that would stall every request for as long (ADR 9). Threads start on first use,
 * each renders one report at a time, and a thread that dies is replaced by the next task.
 */
export class RenderPool {
  private readonly threads = new Set<Worker>();
  private readonly idle: Worker[] = [];
  private readonly busy = new Map<Worker, Waiting>();
  private readonly waiting: Waiting[] = [];
  private closed = false;
  private identity: SigningIdentity | null = null;

  constructor(private readonly size: number) {}

  /** The certificate the threads sign with, loaded once by the main thread at start and handed to each thread. */
  useIdentity(identity: SigningIdentity): void {
    this.identity = identity;
  }

  /**
   * Starts every thread now rather than with the first reports: a thread's start (loading the TypeScript sources,
   * pdfkit, exceljs, the signer) is over a second of CPU, better spent at start than under the first burst.
   */
  warm(): void {
    if (this.closed || !this.identity) return;
    while (this.threads.size < Math.max(1, this.size)) {
      const thread = this.spawn();
      thread.unref();
      this.idle.push(thread);
    }
  }

  run(task: RenderTask): Promise<RenderResult> {
    if (this.closed) return Promise.reject(new Error('render pool closed'));
    if (!this.identity) return Promise.reject(new Error('render pool has no signing identity yet'));
    return new Promise((resolve, reject) => {
      this.waiting.push({ task, resolve, reject });
      this.pump();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const w of this.waiting.splice(0)) w.reject(new Error('render pool closed'));
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
      const request: RenderRequest = { task: next.task };
      thread.postMessage(request, transferList(next.task));
    }
  }

  private spawn(): Worker {
    const thread = new Worker(new URL('./render-thread.mjs', import.meta.url), { workerData: this.identity });
    this.threads.add(thread);
    thread.on('message', (answer: RenderAnswer) => {
      const job = this.busy.get(thread);
      this.busy.delete(thread);
      // An idle thread must not keep the process alive on its own.
      thread.unref();
      this.idle.push(thread);
      if (job) {
        if (answer.ok) job.resolve(answer.result);
        else job.reject(new RenderError(answer.error.message, answer.error.stack));
      }
      this.pump();
    });
    thread.on('error', (error) => this.lose(thread, error));
    thread.on('exit', (code) => this.lose(thread, new Error(`render thread exited (code ${code})`)));
    return thread;
  }

  private lose(thread: Worker, error: Error): void {
    if (!this.threads.delete(thread)) return;
    const at = this.idle.indexOf(thread);
    if (at >= 0) this.idle.splice(at, 1);
    const job = this.busy.get(thread);
    this.busy.delete(thread);
    job?.reject(error);
    if (!this.closed) this.pump();
  }
}
