import { ThreadPool } from '../../lib/thread-pool';
import type { PdfCheckAnswer, PdfCheckRequest } from './pdf-check-thread';
import type { PdfCheck } from './pdf-inspect';

/** Heap of a check thread: a 10 MB PDF parses in a few tens of MB; a hostile one stops here, not in the API's heap. */
const THREAD_MEMORY_MB = 256;

/**
 * One thread that parses uploaded PDFs (ADR 0077): a parse is CPU and memory the sender chooses (a file of a million
 * tiny objects), so it never runs on the API's thread. Checks beyond the thread wait their turn; a thread that dies
 * (its heap limit) makes that file "not a PDF" and is replaced by the next check.
 */
export class PdfChecker {
  private readonly pool = new ThreadPool<PdfCheckRequest, PdfCheckAnswer, PdfCheck>({
    name: 'pdf check',
    entry: new URL('./pdf-check-thread.mjs', import.meta.url),
    size: 1,
    workerOptions: () => ({ resourceLimits: { maxOldGenerationSizeMb: THREAD_MEMORY_MB, maxYoungGenerationSizeMb: 32 } }),
    settle: (answer) => (answer.ok ? answer.result : new Error(answer.error.message)),
  });

  /** The file at `path` (absolute), checked in the thread. */
  async check(path: string): Promise<PdfCheck> {
    try {
      return await this.pool.run({ path });
    } catch (error) {
      return { pdf: false, reason: error instanceof Error ? error.message : 'check failed' };
    }
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
