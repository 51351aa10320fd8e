import { parentPort } from 'node:worker_threads';
import { AppError, type ErrorCode } from '../../../lib/errors';
import { lowerThreadPriority } from '../../../lib/thread-priority';
import { readCsvLines, type CsvLimits } from './csv-reader';
import { readSheetLines, type SheetLimits, type SheetLines } from './sheet-reader';
import type { ZipEntry } from './zip-directory';

/** Messages between the pool and a reader thread: one file at a time (an .xlsx or a CSV), one answer each. */
export type ReadRequest =
  | { kind: 'xlsx'; data: Uint8Array; entries: ZipEntry[]; limits: SheetLimits }
  | { kind: 'csv'; data: Uint8Array; limits: CsvLimits };
export type ReadAnswer =
  | { ok: true; result: SheetLines }
  | { ok: false; refusal: { code: ErrorCode; message: string } }
  | { ok: false; error: { message: string; stack?: string | undefined } };

const port = parentPort;
if (!port) throw new Error('reader-thread runs as a worker thread');

// The lowest priority, below the render threads (10): what a reader inflates and parses is chosen by whoever uploads,
// so it gets only the CPU that requests, ingestion and reports leave idle. An honest file still reads in a second or
// two on an idle machine; a hostile one can no longer take CPU from another tenant's ingestion (issue 9's abuse bench).
lowerThreadPriority(19);

port.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  try {
    const result = request.kind === 'csv' ? readCsvLines(request.data, request.limits) : readSheetLines(request.data, request.entries, request.limits);
    answer = { ok: true, result };
  } catch (error) {
    if (error instanceof AppError) answer = { ok: false, refusal: { code: error.code, message: error.message } };
    else {
      const err = error instanceof Error ? error : new Error(String(error));
      answer = { ok: false, error: { message: err.message, stack: err.stack } };
    }
  }
  port.postMessage(answer);
});
