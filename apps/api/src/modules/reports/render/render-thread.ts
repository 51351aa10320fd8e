import { parentPort, workerData } from 'node:worker_threads';
import { lowerThreadPriority } from '../../../lib/thread-priority';
import type { SigningIdentity } from '../../../reports/signing/certificate';
import { threadTimestamper, type TsaSettings } from '../../../reports/signing/tsa-client';
import { renderToFile } from './render-file';
import type { RenderResult, RenderTask } from './render-task';

/** Messages between the pool and a render thread: one task at a time, one answer each. */
export type RenderRequest = { task: RenderTask };
export type RenderThreadData = { identity: SigningIdentity; tsa: TsaSettings | undefined };
export type RenderAnswer = { ok: true; result: RenderResult } | { ok: false; error: { message: string; stack?: string | undefined } };

const port = parentPort;
if (!port) throw new Error('render-thread runs as a worker thread');

/** Nice value of render threads: below the API's thread, so requests take the CPU first when both want it. */
const RENDER_NICE = 10;

// The renders use the cores the API leaves idle instead of competing with it (ADR 9).
lowerThreadPriority(RENDER_NICE);

// Loaded once by the main thread at start (a plain object: the P12 bytes and its password). The bytes arrive as a
// plain Uint8Array (structured clone drops the Buffer class), and the signer reads them as a Buffer.
const { identity: received, tsa } = workerData as RenderThreadData;
const identity: SigningIdentity = { ...received, p12: Buffer.from(received.p12.buffer, received.p12.byteOffset, received.p12.byteLength) };
// The TSA is called from the thread that signs (the token goes into the signature before the file is written),
// through its own client of the outgoing-request guard (ADR 55, ADR 79).
const timestamper = tsa ? threadTimestamper(tsa) : undefined;

port.on('message', (request: RenderRequest) => {
  void (async () => {
    let answer: RenderAnswer;
    try {
      answer = { ok: true, result: await renderToFile(request.task, identity, timestamper) };
    } catch (error) {
      const err = error instanceof Error ? error : new Error(String(error));
      answer = { ok: false, error: { message: err.message, stack: err.stack } };
    }
    port.postMessage(answer);
  })();
});
