import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A place as Nominatim's /search (format=jsonv2) answers it: coordinates as text. */
export interface NominatimPlace {
  display_name: string;
  lat: string;
  lon: string;
}

export interface FakeGeocoder {
  url: string;
  /** Every /search request received, with its query parameters and headers. */
  requests: { params: URLSearchParams; headers: IncomingMessage['headers'] }[];
  /** What the next searches get: places, an HTTP error status, a body that is not JSON, or no answer at all. */
  answer: { kind: 'places'; places: NominatimPlace[] } | { kind: 'status'; status: number } | { kind: 'garbage' } | { kind: 'hang' };
  close(): Promise<void>;
}

/**
 * A local Nominatim-compatible server (GET /search?q=…&format=jsonv2) on 127.0.0.1, standing in for the geocoder in
 * tests, as the product's real one would answer.
 */
export async function startFakeGeocoder(): Promise<FakeGeocoder> {
  const hanging = new Set<ServerResponse>();
  const fake: FakeGeocoder = {
    url: '',
    requests: [],
    answer: { kind: 'places', places: [] },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname !== '/search') {
      res.writeHead(404).end();
      return;
    }
    fake.requests.push({ params: url.searchParams, headers: req.headers });
    const answer = fake.answer;
    switch (answer.kind) {
      case 'places':
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer.places));
        return;
      case 'status':
        res.writeHead(answer.status, { 'content-type': 'application/json' }).end('{"error":"unavailable"}');
        return;
      case 'garbage':
        res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not json</html>');
        return;
      case 'hang':
        hanging.add(res);
        return;
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
