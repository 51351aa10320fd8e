import { parentPort } from 'node:worker_threads';
import { AppError } from '../lib/errors';
import { lowerThreadPriority } from '../lib/thread-priority';
import { columnBuffers, readPayload, toColumns, type ReadAnswer, type ReadRequest } from './payload-reader';

const port = parentPort;
if (!port) throw new Error('payload-thread runs as a worker thread');

// Below the event loop's thread (0), above the report threads (10, 19): the loop answers everyone, a large payload
// concerns one gateway, yet readings must not wait behind reports.
lowerThreadPriority(5);

port.on('message', (request: ReadRequest) => {
  let answer: ReadAnswer;
  let transfer: ArrayBuffer[] = [];
  try {
    const read = readPayload(request.payload, request.nowMs);
    const columns = toColumns(read.valid);
    transfer = columnBuffers(columns);
    answer = { ok: true, columns, rejected: read.rejected, count: read.count, ...(read.topicMac ? { topicMac: read.topicMac } : {}) };
  } catch (error) {
    if (error instanceof AppError) answer = { ok: false, refusal: { code: error.code, message: error.message } };
    else {
      const err = error instanceof Error ? error : new Error(String(error));
      answer = { ok: false, error: { message: err.message, stack: err.stack } };
    }
  }
  port.postMessage(answer, transfer);
});
