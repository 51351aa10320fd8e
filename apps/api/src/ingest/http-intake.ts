import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MSG } from '@sentinela/contract';
import { RetryLaterError } from '../lib/errors';
import type { AppServices } from '../services';
import { gatewayAuthentication } from './gateway-authentication';
import type { Admission } from './ingest-admission';
import type { IngestResult } from './ingest-service';
import { INGEST_MESSAGES } from './messages';

export interface HttpIntake {
  /** The route's onRequest hook: the gateway's key, then the load and its bytes quota, before the body is read. */
  onRequest(request: FastifyRequest): Promise<void>;
  /** Reads the body (large ones in a thread), charges its readings to the quota and stores them. */
  ingest(request: FastifyRequest): Promise<IngestResult>;
}

/**
 * The HTTP side of an ingestion route (POST /api/ingest/readings, /api/ingest/ruuvi; ADR 52). The route receives its
 * JSON body as bytes (`takeJsonAsBytes`), so that the payload reader parses it — in a thread when large — instead
 * of Fastify on the event loop. The quota is charged in the cheapest order: bytes by the declared Content-Length in
 * onRequest (a refused body is never read nor parsed), readings once the body is parsed. A refusal is a 429 (quota)
 * or 503 (the gateway was among the heaviest while the process lagged), both with Retry-After.
 */
export function httpIntake(
  services: AppServices,
  kind: 'readings' | 'ruuvi',
  readKey: (request: FastifyRequest) => string | null,
  missingKeyMessage: string,
): HttpIntake {
  const authentication = gatewayAuthentication(services, readKey, missingKeyMessage);
  const charged = new WeakSet<FastifyRequest>();
  return {
    async onRequest(request) {
      await authentication.onRequest(request);
      const declared = Number(request.headers['content-length']);
      // Without a length (chunked), only the load is asked now; the bytes are charged once read.
      const known = request.headers['content-length'] !== undefined && Number.isSafeInteger(declared) && declared >= 0;
      refuseUnless(services.ingestAdmission.admitBytes(authentication.gatewayOf(request).id, known ? declared : 0));
      if (known) charged.add(request);
    },
    async ingest(request) {
      const gateway = authentication.gatewayOf(request);
      const bytes = bodyBytes(request.body);
      if (!charged.has(request)) refuseUnless(services.ingestAdmission.admitBytes(gateway.id, bytes.byteLength));
      const read = await services.payloads.read({ kind, bytes }, services.ingest.nowMs());
      refuseUnless(services.ingestAdmission.admitReadings(gateway.id, read.count));
      return services.ingest.ingest([{ gateway, valid: read.valid, rejected: read.rejected }]);
    },
  };
}

/**
 * In the calling plugin's scope (an ingestion route's), JSON bodies arrive as their bytes, up to `bodyLimit`: the
 * payload reader parses them. Other scopes keep Fastify's parser.
 */
export function takeJsonAsBytes(app: FastifyInstance, bodyLimit: number): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
}

/** The body as bytes: JSON as taken above, text as sent (Fastify's text/plain parser), nothing as empty. */
function bodyBytes(body: unknown): Uint8Array {
  if (body instanceof Uint8Array) return body;
  if (typeof body === 'string') return Buffer.from(body, 'utf8');
  return new Uint8Array(0);
}

function refuseUnless(admission: Admission): void {
  if (admission.ok) return;
  if (admission.reason === 'quota') throw new RetryLaterError('TOO_MANY_REQUESTS', INGEST_MESSAGES.quotaExceeded, admission.retryAfterSeconds);
  throw new RetryLaterError('SERVICE_UNAVAILABLE', MSG.overloaded, admission.retryAfterSeconds);
}
