import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** What the receiver answered (0: it never answered). */
  answered: number;
}

/**
 * A webhook receiver on 127.0.0.1 (a port of its own), as an integrator runs one: it records every POST and answers
 * what the test scripted for its path — a status per request in order (then `fallback`), or 'hang' to never answer
 * (a timeout). Paths keep tests apart: each test's webhook has its own.
 */
export async function startWebhookReceiver(options: { fallback?: number } = {}) {
  const received: ReceivedWebhook[] = [];
  const scripts = new Map<string, Array<number | 'hang'>>();
  let fallback = options.fallback ?? 200;
  const hanging = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const next = scripts.get(req.url ?? '/')?.shift() ?? fallback;
      const entry: ReceivedWebhook = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), answered: next === 'hang' ? 0 : next };
      received.push(entry);
      if (next === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(next, { 'content-type': 'text/plain' });
      res.end(next >= 200 && next < 300 ? 'ok' : 'recusado pelo receptor de teste');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path = '/hooks') => `http://127.0.0.1:${port}${path}`,
    received,
    /** The next answers to `path`, in order (then the fallback). */
    answer(path: string, ...statuses: Array<number | 'hang'>) {
      scripts.set(path, [...(scripts.get(path) ?? []), ...statuses]);
    },
    setFallback(status: number) {
      fallback = status;
    },
    /** The requests that reached `path`. */
    at(path: string) {
      return received.filter((r) => r.path === path);
    },
    async close() {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
