// @ts-check
/**
 * How the API server process is started, by `npm start` and by the benchmarks alike, so that what is measured is
 * what runs.
 */
import path from 'node:path';

/**
 * A larger young generation: with thousands of sockets and a steady ingest, V8's default 16 MB semi-space is
 * scavenged several times a second, each pause delaying every delivery queued behind it. 64 MB makes those pauses
 * about four times rarer at the same length (what survives a scavenge, not the space, sets its cost).
 */
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=64'];

/** Arguments for `spawn(process.execPath, serverArgs(root))`. */
export function serverArgs(root) {
  return [...SERVER_NODE_FLAGS, '--import', 'tsx', path.join(root, 'apps/api/src/server.ts')];
}

/**
 * Limits lifted for the benchmarks' servers: a benchmark is one user (or one address) creating the load that the
 * abuse limits exist to stop, from one machine. Measurements of the limits themselves set theirs explicitly.
 */
export const BENCH_LIMITS_ENV = {
  USER_MAX_REQUESTS_PER_MINUTE: '100000000',
  LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: '100000000',
  SOCKET_SUBSCRIBES_PER_MINUTE: '100000000',
  SOCKETS_PER_ADDRESS: '100000000',
  SOCKET_CONNECTS_PER_ADDRESS_PER_MINUTE: '100000000',
  LOGIN_MAX_PER_MINUTE: '100000000',
  // Thousands of sockets and gateways from one loopback address.
  CONNECTIONS_PER_ADDRESS: '0',
  // Ingestion benchmarks are one gateway key sending a whole platform's readings (ADR 52).
  INGEST_READINGS_PER_SECOND: '0',
  INGEST_BYTES_PER_SECOND: '0',
  INGEST_SHED_EVENT_LOOP_DELAY_MS: '0',
  // The benchmarks measure the process at saturation: it must not shed the load it is being measured under.
  OVERLOAD_EVENT_LOOP_DELAY_MS: '0',
};
