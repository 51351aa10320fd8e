import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { deflateSync } from 'node:zlib';

/**
 * Local stand-ins for the map services (house rule 9): a tile server answering the slippy-map protocol
 * (GET /{z}/{x}/{y}.png) and an OSRM-compatible routing server (GET /route/v1/driving/{lng},{lat};{lng},{lat}). Tests
 * run without internet, and the browser's requests show that the configured servers are the ones used.
 */

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(data: Buffer): number {
  let c = 0xffffffff;
  for (const byte of data) c = CRC_TABLE[(c ^ byte) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A 256×256 tile: a light fill with a darker border, so tiles are visible in screenshots. */
function tilePng(): Buffer {
  const size = 256;
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) {
      const edge = x === 0 || y === 0;
      row.set(edge ? [200, 206, 196] : [236, 240, 232], 1 + x * 3);
    }
    rows.push(row);
  }
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export interface FakeServer {
  url: string;
  requests: () => number;
  close: () => Promise<void>;
}

function listen(handler: http.RequestListener): Promise<{ server: http.Server; url: string }> {
  const server = http.createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}` });
    });
  });
}

const closer = (server: http.Server) => () =>
  new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });

export async function startTileServer(): Promise<FakeServer> {
  const png = tilePng();
  let count = 0;
  const { server, url } = await listen((request, response) => {
    if (request.url === '/__stats') return void response.end(JSON.stringify({ requests: count }));
    if (!/^\/\d+\/\d+\/\d+\.png$/.test(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    count++;
    response.writeHead(200, { 'content-type': 'image/png', 'cache-control': 'no-store' }).end(png);
  });
  return { url, requests: () => count, close: closer(server) };
}

/** The road between two places: the straight line with a bend, so it is told apart from the fallback line. */
function roadBetween(from: [number, number], to: [number, number]): [number, number][] {
  const points: [number, number][] = [];
  for (let i = 0; i <= 20; i++) {
    const f = i / 20;
    const bend = Math.sin(f * Math.PI) * 0.15;
    points.push([from[0] + (to[0] - from[0]) * f + bend, from[1] + (to[1] - from[1]) * f - bend]);
  }
  return points;
}

export async function startRoutingServer(): Promise<FakeServer> {
  let count = 0;
  const { server, url } = await listen((request, response) => {
    const headers = { 'content-type': 'application/json', 'access-control-allow-origin': '*' };
    if (request.url === '/__stats') return void response.writeHead(200, headers).end(JSON.stringify({ requests: count }));
    const match = /^\/route\/v1\/driving\/(-?[\d.]+),(-?[\d.]+);(-?[\d.]+),(-?[\d.]+)\?/.exec(request.url ?? '');
    if (!match) {
      response.writeHead(400, headers).end(JSON.stringify({ code: 'InvalidUrl', message: 'URL string malformed' }));
      return;
    }
    count++;
    const [from, to] = [
      [Number(match[1]), Number(match[2])],
      [Number(match[3]), Number(match[4])],
    ] as [[number, number], [number, number]];
    const coordinates = roadBetween(from, to);
    response.writeHead(200, headers).end(
      JSON.stringify({
        code: 'Ok',
        routes: [{ distance: 432_100, duration: 20_000, geometry: { type: 'LineString', coordinates }, legs: [] }],
        waypoints: [
          { location: from, name: '' },
          { location: to, name: '' },
        ],
      }),
    );
  });
  return { url, requests: () => count, close: closer(server) };
}
