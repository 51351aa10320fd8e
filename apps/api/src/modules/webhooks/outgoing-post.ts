import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { endpointAllowed, publicOnlyLookup } from '../push/endpoint-guard';

export interface PostOutcome {
  /** The receiver's HTTP status; null when none came (refused address, network error, timeout). */
  status: number | null;
  durationMs: number;
  /** Why it failed, in pt-BR for the delivery log; null for a 2xx. */
  error: string | null;
}

/**
 * The one place webhooks call out (ADR 66): a POST through the outgoing-address guard, no redirects followed (a 3xx
 * is a failure, so a receiver cannot bounce the server to an internal address), a time limit on the whole exchange,
 * and only the first bytes of an error answer kept. Until the shared outgoing-request guard (lib/outgoing) lands,
 * this uses web push's guard: the address is checked by URL and again on the addresses the DNS lookup returns.
 */
export function postSigned(url: string, headers: Record<string, string>, body: string, options: { timeoutMs: number; allowPrivate: boolean }): Promise<PostOutcome> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  if (!endpointAllowed(url, options.allowPrivate)) return Promise.resolve({ status: null, durationMs: 0, error: 'Endereço recusado: use https:// e um endereço público.' });
  const target = new URL(url);
  const transport = target.protocol === 'https:' ? https : http;
  return new Promise<PostOutcome>((resolve) => {
    let settled = false;
    const finish = (outcome: Omit<PostOutcome, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...outcome, durationMs: elapsed() });
    };
    const request = transport.request(
      target,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(options.allowPrivate ? {} : { lookup: publicOnlyLookup as never }),
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          if (size < 1024) chunks.push(chunk);
          size += chunk.length;
        });
        response.on('end', () => {
          if (status >= 200 && status < 300) return finish({ status, error: null });
          const text = Buffer.concat(chunks).toString('utf8').slice(0, 300).replace(/\s+/g, ' ').trim();
          const redirect = status >= 300 && status < 400 ? ' (redirecionamentos não são seguidos)' : '';
          finish({ status, error: `O destino respondeu ${status}${redirect}${text ? `: ${text}` : ''}` });
        });
        response.on('error', (error) => finish({ status, error: `Resposta interrompida: ${error.message}` }));
      },
    );
    const timer = setTimeout(() => {
      request.destroy();
      finish({ status: null, error: `Sem resposta em ${options.timeoutMs / 1000} s.` });
    }, options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) => {
      const reason = error.code === 'EPUSHENDPOINT' ? 'o endereço aponta para a rede interna' : error.code ?? error.message;
      finish({ status: null, error: `Falha de conexão: ${reason}.` });
    });
    request.end(body);
  });
}
