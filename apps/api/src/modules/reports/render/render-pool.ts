import { ThreadPool } from '../../../lib/thread-pool';
import type { SigningIdentity } from '../../../reports/signing/certificate';
import type { TsaSettings } from '../../../reports/signing/tsa-client';
import type { RenderAnswer, RenderRequest, RenderThreadData } from './render-thread';
import { transferList, type RenderResult, type RenderTask } from './render-task';

/** A render failed inside its thread; the message is the renderer's own (for the log, not for users). */
export class RenderError extends Error {
  constructor(message: string, readonly threadStack?: string) {
    super(message);
    this.name = 'RenderError';
  }
}

/**
 * Worker threads that render and sign reports. Drawing a PDF of 10,000 readings and signing it is about half a
 * second of CPU: on the main thread that would stall every request for as long (ADR 9).
 */
export class RenderPool {
  private identity: SigningIdentity | null = null;
  private readonly pool: ThreadPool<RenderRequest, RenderAnswer, RenderResult>;

  /** @param tsa REPORT_TSA_URL and its deadline: the threads timestamp every PDF signature (ADR 79). */
  constructor(
    size: number,
    private readonly tsa?: TsaSettings,
  ) {
    this.pool = new ThreadPool<RenderRequest, RenderAnswer, RenderResult>({
      name: 'render',
      entry: new URL('./render-thread.mjs', import.meta.url),
      size,
      workerOptions: () => ({ workerData: { identity: this.identity!, tsa: this.tsa } satisfies RenderThreadData }),
      transfer: (request) => transferList(request.task),
      settle: (answer) => (answer.ok ? answer.result : new RenderError(answer.error.message, answer.error.stack)),
    });
  }

  /** The certificate the threads sign with, loaded once by the main thread at start and handed to each thread. */
  useIdentity(identity: SigningIdentity): void {
    this.identity = identity;
  }

  /**
   * Starts every thread now rather than with the first reports: a thread's start (loading the TypeScript sources,
   * pdfkit, exceljs, the signer) is over a second of CPU, better spent at start than under the first burst.
   */
  warm(): void {
    if (this.identity) this.pool.warm();
  }

  run(task: RenderTask): Promise<RenderResult> {
    if (!this.identity) return Promise.reject(new Error('render pool has no signing identity yet'));
    return this.pool.run({ task });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
