import { performance } from 'node:perf_hooks';
import { OUTGOING_FAILED_MESSAGE, OutgoingRequestError, type OutgoingClient } from '../../lib/outgoing/outgoing-client';

export interface PostOutcome {
  /** The receiver's HTTP status; null when none came (refused address, network error, timeout). */
  status: number | null;
  durationMs: number;
  /** Why it failed, in pt-BR for the delivery log; null for a 2xx. */
  error: string | null;
  /** What happened, for the server's log only (never shown: it would describe our network). */
  detail?: string;
}

/** What a receiver's answer may weigh: the log keeps its first bytes only. */
const MAX_ANSWER_BYTES = 64 * 1024;
export const WEBHOOK_URL_REFUSED = 'Endereço recusado: use https:// e um endereço público.';

/**
 * The one place webhooks call out (ADR 66): a POST through the shared outgoing-request guard (ADR 55: every address
 * form checked, DNS included, the checked address connected to, port 443 unless configured), no redirects followed
 * (a 3xx is a failure, so a receiver cannot bounce the server to an internal address), a time limit on the whole
 * exchange, and only the first bytes of an error answer kept. A request that got no answer is logged for users with
 * a generic sentence: the network's own error (connection refused, reset…) would be a port scanner's oracle.
 */
export async function postSigned(outgoing: OutgoingClient, url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number }): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await outgoing.request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      body,
      timeoutMs: options.timeoutMs,
      maxResponseBytes: MAX_ANSWER_BYTES,
    });
    if (response.ok) return { status: response.status, durationMs: elapsed(), error: null };
    const text = response.text().slice(0, 300).replace(/\s+/g, ' ').trim();
    return { status: response.status, durationMs: elapsed(), error: `O destino respondeu ${response.status}${text ? `: ${text}` : ''}` };
  } catch (error) {
    if (!(error instanceof OutgoingRequestError)) throw error;
    const durationMs = elapsed();
    const said: Record<typeof error.reason, string> = {
      refused: WEBHOOK_URL_REFUSED,
      timeout: `Sem resposta em ${options.timeoutMs / 1000} s.`,
      redirect: 'O destino respondeu com um redirecionamento (redirecionamentos não são seguidos).',
      'too-large': OUTGOING_FAILED_MESSAGE,
      network: OUTGOING_FAILED_MESSAGE,
    };
    return { status: null, durationMs, error: said[error.reason], detail: error.detail };
  }
}
