import { createServer as createHttpServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer } from 'node:net';
import type { LookupAddress } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../src/lib/outgoing/address-policy';
import { OUTGOING_FAILED_MESSAGE, OutgoingClient, OutgoingRequestError } from '../src/lib/outgoing/outgoing-client';

/**
 * The outgoing-request guard (issue 21 item 7, ADR 55): every address form, names that resolve inside, redirects,
 * ports, size and time, and errors that never carry the network's words. A TCP server counting connections on
 * 127.0.0.1 proves that a refused destination was never even connected to.
 *
 * Database-agnostic (ADR 85): the outgoing-request guard opens no database.
 */

let tcp: TcpServer;
let tcpPort: number;
let connections = 0;

beforeAll(async () => {
  tcp = createTcpServer((socket) => {
    connections += 1;
    socket.destroy();
  });
  await new Promise<void>((resolve) => tcp.listen(0, '127.0.0.1', resolve));
  tcpPort = (tcp.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => tcp.close(() => resolve())));

const strict = (resolve?: (host: string) => Promise<LookupAddress[]>, ports = [443]) => new OutgoingClient({ allowPrivate: false, allowedPorts: ports, resolve });

async function refusal(promise: Promise<unknown>): Promise<OutgoingRequestError> {
  const error = await promise.then(
    () => null,
    (err: unknown) => err,
  );
  expect(error).toBeInstanceOf(OutgoingRequestError);
  return error as OutgoingRequestError;
}

describe('addresses', () => {
  it('only public unicast addresses are public, in every spelling', () => {
    for (const address of ['8.8.8.8', '200.160.2.3', '2606:4700:4700::1111', '::ffff:8.8.8.8']) expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.1', '127.1', '0x7f.1', '0177.0.0.1', '2130706433', '0.0.0.0', '10.1.2.3', '172.16.0.1', '192.168.1.1',
      '100.64.0.1', '169.254.169.254', '224.0.0.1', '255.255.255.255', '192.0.2.1', '198.18.0.1',
      '::1', '::', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:0:7f00:1', '::7f00:1', '::127.0.0.1', '64:ff9b::7f00:1',
      '2002:7f00:1::', '2001::1', 'fe80::1', 'fc00::1', 'fd12:3456::1', 'ff02::1', '2001:db8::1', '[::1]', 'fe80::1%eth0',
      'not-an-address',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses every internal address form before connecting, even on an allowed port', async () => {
    const client = strict(undefined, [tcpPort]);
    for (const host of [
      '127.0.0.1', '127.1', '0x7f.1', '0177.0.0.1', '2130706433', '0.0.0.0',
      '[::1]', '[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::ffff:0:7f00:1]', '[::7f00:1]', '[64:ff9b::7f00:1]', '[2002:7f00:1::]',
      'localhost', 'sentinela.local', 'metadata.google.internal', 'intranet',
    ]) {
      const error = await refusal(client.request(`https://${host}:${tcpPort}/push`, { method: 'POST', body: 'x' }));
      expect(error.reason, host).toBe('refused');
    }
    expect(connections).toBe(0);
  });

  it('refuses plain http, credentials, other schemes and ports not allowed', async () => {
    const client = strict(async () => [{ address: '8.8.8.8', family: 4 }]);
    for (const url of ['http://push.example.com/x', 'https://user:pass@push.example.com/x', 'ftp://push.example.com/x', 'https://push.example.com:8443/x', 'https://push.example.com:39805/x']) {
      expect((await refusal(client.request(url))).reason, url).toBe('refused');
      expect(client.urlAllowed(url), url).toBe(false);
    }
    expect(client.urlAllowed('https://push.example.com/x')).toBe(true);
    expect(new OutgoingClient({ allowPrivate: false, allowedPorts: [443, 8443] }).urlAllowed('https://push.example.com:8443/x')).toBe(true);
  });
});

describe('names', () => {
  it('a name that resolves to loopback, or to one internal address among public ones, is refused before connecting', async () => {
    const asked: string[] = [];
    const client = strict(async (host) => {
      asked.push(host);
      return host === 'mixed.example.com'
        ? [{ address: '8.8.8.8', family: 4 }, { address: '::ffff:0:7f00:1', family: 6 }]
        : [{ address: '127.0.0.1', family: 4 }];
    });
    for (const host of ['push.example.com', 'mixed.example.com']) {
      expect((await refusal(client.request(`https://${host}/push`, { method: 'POST' }))).reason).toBe('refused');
      expect(await client.destinationAllowed(`https://${host}/push`)).toBe(false);
    }
    expect(asked).toContain('push.example.com');
    expect(connections).toBe(0);
  });

  it('connects to the address that was checked, resolving the name once', async () => {
    const server = await httpServer((req, res) => res.writeHead(200).end(`host=${req.headers.host}`));
    let lookups = 0;
    const client = new OutgoingClient({
      allowPrivate: true,
      allowedPorts: [443],
      resolve: async () => {
        lookups += 1;
        return [{ address: '127.0.0.1', family: 4 }];
      },
    });
    try {
      const res = await client.request(`http://push.sentinela.test:${server.port}/ping`);
      expect(res.status).toBe(200);
      expect(res.text()).toBe(`host=push.sentinela.test:${server.port}`);
      expect(lookups).toBe(1);
    } finally {
      await server.close();
    }
  });
});

describe('redirects', () => {
  let target: Awaited<ReturnType<typeof httpServer>>;
  let redirector: Awaited<ReturnType<typeof httpServer>>;
  beforeAll(async () => {
    target = await httpServer((_req, res) => res.writeHead(200).end('inside'));
    redirector = await httpServer((req, res) => {
      const to = req.url === '/mapped' ? `https://[::ffff:7f00:1]:${target.port}/` : `http://127.0.0.1:${target.port}/`;
      res.writeHead(302, { location: to }).end();
    });
  });
  afterAll(async () => {
    await target.close();
    await redirector.close();
  });

  it('are refused by default, and when followed each target is checked as a public destination', async () => {
    // The first hop is the operator's (trusted); where it redirects to is a remote server's choice.
    const client = strict();
    expect((await refusal(client.request(`http://127.0.0.1:${redirector.port}/`, { trust: 'operator' }))).reason).toBe('redirect');
    for (const path of ['/', '/mapped']) {
      expect((await refusal(client.request(`http://127.0.0.1:${redirector.port}${path}`, { trust: 'operator', maxRedirects: 3 }))).reason).toBe('refused');
    }
    expect(target.requests).toHaveLength(0);
  });
});

describe('time, size and what users read', () => {
  it('gives up at the deadline and on answers above the cap', async () => {
    const silent = await httpServer(() => undefined);
    const big = await httpServer((_req, res) => {
      res.writeHead(200);
      res.end(Buffer.alloc(256 * 1024, 97));
    });
    const client = strict();
    try {
      expect((await refusal(client.request(`http://127.0.0.1:${silent.port}/`, { trust: 'operator', timeoutMs: 300 }))).reason).toBe('timeout');
      expect((await refusal(client.request(`http://127.0.0.1:${big.port}/`, { trust: 'operator', maxResponseBytes: 64 * 1024 }))).reason).toBe('too-large');
      const ok = await client.request(`http://127.0.0.1:${big.port}/`, { trust: 'operator' });
      expect(ok.body.length).toBe(256 * 1024);
    } finally {
      await silent.close();
      await big.close();
    }
  });

  it('says the same generic pt-BR sentence whatever happened; the network’s words stay in `detail` for the log', async () => {
    const closedPort = await freePort();
    const errors = [
      await refusal(strict().request(`http://127.0.0.1:${closedPort}/`, { trust: 'operator' })),
      await refusal(strict(undefined, [tcpPort]).request(`https://[::ffff:0:7f00:1]:${tcpPort}/push`)),
      await refusal(strict(undefined, [443]).request(`https://[::ffff:0:7f00:1]:${tcpPort}/push`)),
    ];
    for (const error of errors) {
      expect(error.message).toBe(OUTGOING_FAILED_MESSAGE);
      expect(error.message).not.toMatch(/ECONN|127\.0\.0\.1|::ffff|refused|port/i);
    }
    expect(errors[0]!.reason).toBe('network');
    expect(errors[0]!.detail).toMatch(/ECONNREFUSED/);
  });
});

async function httpServer(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const requests: string[] = [];
  const server: Server = createHttpServer((req, res) => {
    requests.push(req.url ?? '');
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function freePort(): Promise<number> {
  const server = createTcpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
