import { AppError } from '../../../lib/errors';
import { ThreadPool } from '../../../lib/thread-pool';
import { REPORT_SERVER_MESSAGES as M } from '../messages';
import type { CsvLimits } from './csv-reader';
import type { ReadAnswer, ReadRequest } from './reader-thread';
import type { SheetLimits, SheetLines } from './sheet-reader';
import type { ZipEntry } from './zip-directory';

/**
 * Worker threads that read uploaded spreadsheets, .xlsx or CSV (ADR 13). Inflating and parsing an upload is CPU and
 * memory the sender chooses: on the main thread a hostile file stalled every request for seconds and grew the heap by
 * gigabytes. Here each thread reads one file at a time under a heap limit of its own; a thread that dies or runs out
 * of memory answers a 413 for the file it was reading and is replaced by the next read. Uploads beyond the threads
 * wait their turn, so the cost of a burst of uploads is at most `size` cores.
 */
export class SpreadsheetReaderPool {
  private readonly pool: ThreadPool<ReadRequest, ReadAnswer, SheetLines>;

  constructor(size: number, memoryMb: number) {
    this.pool = new ThreadPool<ReadRequest, ReadAnswer, SheetLines>({
      name: 'spreadsheet reader',
      entry: new URL('./reader-thread.mjs', import.meta.url),
      size,
      workerOptions: () => ({
        resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: Math.max(4, Math.floor(memoryMb / 8)) },
      }),
      transfer: (request) => [request.data.buffer as ArrayBuffer],
      settle: (answer) => {
        if (answer.ok) return answer.result;
        if ('refusal' in answer) return new AppError(answer.refusal.code, answer.refusal.message);
        return Object.assign(new Error(answer.error.message), { stack: answer.error.stack });
      },
      // A thread that died was most likely past its heap limit: the file it read is too heavy to read.
      lost: (cause) => Object.assign(new AppError('PAYLOAD_TOO_LARGE', M.excelTooHeavy), { cause }),
    });
  }

  /** Reads the report rows of a checked archive. The bytes are copied into the thread, the caller's stay as they are. */
  read(data: Buffer, entries: ZipEntry[], limits: SheetLimits): Promise<SheetLines> {
    // A copy of its own to transfer: a small Buffer may share its memory with other Buffers (Node's pool).
    return this.pool.run({ kind: 'xlsx', data: new Uint8Array(data), entries, limits });
  }

  /** Reads the filled rows of a CSV file (a beacon list), off the event loop like a sheet (issue 21). */
  readCsv(data: Buffer, limits: CsvLimits): Promise<SheetLines> {
    return this.pool.run({ kind: 'csv', data: new Uint8Array(data), limits });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
