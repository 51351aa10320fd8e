import { parentPort } from 'node:worker_threads';
import { lowerThreadPriority } from '../../lib/thread-priority';
import { inspectPdf, type PdfCheck } from './pdf-inspect';

/** Messages between the pool and a PDF check thread: one file at a time. */
export type PdfCheckRequest = { path: string };
export type PdfCheckAnswer = { ok: true; result: PdfCheck } | { ok: false; error: { message: string } };

const port = parentPort;
if (!port) throw new Error('pdf-check-thread runs as a worker thread');

// Parsing what a user sent uses the CPU the API leaves idle (like report renders, ADR 9).
lowerThreadPriority(10);

port.on('message', (request: PdfCheckRequest) => {
  void (async () => {
    let answer: PdfCheckAnswer;
    try {
      answer = { ok: true, result: await inspectPdf(request.path) };
    } catch (error) {
      answer = { ok: false, error: { message: error instanceof Error ? error.message : String(error) } };
    }
    port.postMessage(answer);
  })();
});
