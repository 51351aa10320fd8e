import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import { connect as connectTcp, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as connectTls } from 'node:tls';
import { connectAsync, type MqttClient } from 'mqtt';
import { io as connectClient, type Socket as ClientSocket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { addressKey, automaticConnectionsMax } from '../src/lib/connection-guard';
import { DEMO_GATEWAY_KEY } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { readingsOf } from './ingest-helpers';
import { selfSignedCertificate } from './tls-certificate';

/**
 * Connection floods (issue 21, ADR 51): connections per client address are capped on every raw listener — HTTP
 * (Socket.IO included), MQTT and MQTT over TLS, one count per process — and in all; connections that send nothing
 * are closed after a short time; and while one address floods, another still gets /api/health. Distinct client
 * addresses are loopback aliases (Linux routes the whole 127/8 to lo), bound as the connections' local address.
 *
 * Database-agnostic (ADR 85): connection caps live in the listeners; the database is only what the app stands on.
 */
const CAP = 20;
const MAX = 100;
const POLL = { timeout: 30_000, interval: 50 };

let tmp: string;
let cert: { cert: string; key: string };
const opened: { destroy(): void }[] = [];

beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'sentinela-flood-'));
  cert = selfSignedCertificate();
  writeFileSync(path.join(tmp, 'cert.pem'), cert.cert);
  writeFileSync(path.join(tmp, 'key.pem'), cert.key);
});
afterAll(() => {
  for (const s of opened) s.destroy();
  rmSync(tmp, { recursive: true, force: true });
});

interface Idle {
  socket: Socket;
  closed: boolean;
  received: string;
}

/** `n` raw TCP connections from `from` that send nothing; resolves once each is connected or already closed. */
async function openIdle(port: number, from: string, n: number): Promise<Idle[]> {
  return Promise.all(
    Array.from({ length: n }, () => {
      const socket = connectTcp({ port, host: '127.0.0.1', localAddress: from });
      opened.push(socket);
      const idle: Idle = { socket, closed: false, received: '' };
      socket.on('error', () => {});
      socket.on('data', (chunk: Buffer) => (idle.received += chunk.toString('latin1')));
      return new Promise<Idle>((resolve) => {
        socket.once('connect', () => resolve(idle));
        socket.once('close', () => {
          idle.closed = true;
          resolve(idle);
        });
      });
    }),
  );
}

const closedCount = (conns: readonly Idle[]) => conns.filter((c) => c.closed).length;

async function closeAll(conns: readonly Idle[]): Promise<void> {
  for (const c of conns) c.socket.destroy();
  await vi.waitFor(() => expect(closedCount(conns)).toBe(conns.length), POLL);
}

/** GET over a fresh connection from `from`: the status, or the error's code when the connection was refused. */
function get(port: number, urlPath: string, from: string): Promise<{ status: number } | { error: string }> {
  return new Promise((resolve) => {
    const req = http.get({ port, host: '127.0.0.1', path: urlPath, localAddress: from, agent: false, timeout: 20_000 }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode ?? 0 }));
    });
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', (err: NodeJS.ErrnoException) => resolve({ error: err.code ?? err.message }));
  });
}

describe('connections per address and in all, one count for HTTP, Socket.IO, MQTT and MQTT over TLS', () => {
  let ctx: TestContext;
  let httpPort: number;
  let mqttPort: number;
  let mqttsPort: number;
  const clients: MqttClient[] = [];
  const sockets: ClientSocket[] = [];

  beforeAll(async () => {
    ctx = await createTestContext({
      demo: true,
      config: {
        connectionsPerAddress: CAP,
        connectionsMax: MAX,
        // Long enough that nothing here is closed for being idle: what closes is the caps' doing.
        httpHeadersTimeoutSeconds: 120,
        mqttConnectTimeoutSeconds: 120,
        mqttEnabled: true,
        mqttPort: 0,
        mqttTls: { certPath: path.join(tmp, 'cert.pem'), keyPath: path.join(tmp, 'key.pem'), port: 0, host: '127.0.0.1' },
      },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    await ctx.app.mqtt!.ready();
    httpPort = (ctx.app.server.address() as { port: number }).port;
    mqttPort = ctx.app.mqtt!.port!;
    mqttsPort = ctx.app.mqtt!.tlsPort!;
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await Promise.all(clients.map((c) => c.endAsync(true)));
    await ctx.close();
  });

  it('resets the connections of one address beyond the cap at once, while another address gets /api/health', async () => {
    const flood = await openIdle(httpPort, '127.0.0.2', CAP + 10);
    // The ten beyond the cap are reset; the twenty admitted stay open (nothing here times out for minutes).
    await vi.waitFor(() => {
      expect(closedCount(flood)).toBe(10);
      expect(ctx.app.connections.counts('127.0.0.2').fromAddress).toBe(CAP);
    }, POLL);
    expect(await get(httpPort, '/api/health', '127.0.0.3')).toEqual({ status: 200 });
    // The flooding address itself gets nothing more while it holds its cap…
    expect(await get(httpPort, '/api/health', '127.0.0.2')).toEqual({ error: 'ECONNRESET' });
    await closeAll(flood);
    // …and is served again once its connections are gone.
    await vi.waitFor(() => expect(ctx.app.connections.counts('127.0.0.2').fromAddress).toBe(0), POLL);
    expect(await get(httpPort, '/api/health', '127.0.0.2')).toEqual({ status: 200 });
  });

  it('counts MQTT, MQTT over TLS and HTTP together, and gateways of other addresses keep publishing', async () => {
    // Half the cap on each MQTT listener, nothing sent (for TLS, not even a ClientHello).
    const plain = await openIdle(mqttPort, '127.0.0.4', CAP / 2);
    const tls = await openIdle(mqttsPort, '127.0.0.4', CAP / 2);
    await vi.waitFor(() => expect(ctx.app.connections.counts('127.0.0.4').fromAddress).toBe(CAP), POLL);
    expect(closedCount([...plain, ...tls])).toBe(0);
    // One more from that address, on any listener, is reset.
    const [moreMqtt, moreMqtts] = [await openIdle(mqttPort, '127.0.0.4', 1), await openIdle(mqttsPort, '127.0.0.4', 1)];
    await vi.waitFor(() => expect(closedCount([...moreMqtt, ...moreMqtts])).toBe(2), POLL);
    expect(await get(httpPort, '/api/health', '127.0.0.4')).toEqual({ error: 'ECONNRESET' });

    // Meanwhile a gateway elsewhere (127.0.0.1) connects over both listeners, and its readings are stored.
    const mac = 'C3:00:00:00:01:03';
    const instants = [new Date(ctx.clock.now().getTime() - 30_000).toISOString(), new Date(ctx.clock.now().getTime() - 20_000).toISOString()];
    const overTcp = await connectAsync(`mqtt://127.0.0.1:${mqttPort}`, { username: 'gateway', password: DEMO_GATEWAY_KEY, reconnectPeriod: 0 });
    const overTls = await connectAsync(`mqtts://127.0.0.1:${mqttsPort}`, { username: 'gateway', password: DEMO_GATEWAY_KEY, reconnectPeriod: 0, ca: cert.cert });
    clients.push(overTcp, overTls);
    await overTcp.publishAsync(`devices/${mac}/readings`, JSON.stringify({ ts: instants[0], temperature: 4.1 }), { qos: 1 });
    await overTls.publishAsync(`devices/${mac}/readings`, JSON.stringify({ ts: instants[1], temperature: 4.2 }), { qos: 1 });
    const stored = (await readingsOf(ctx, mac, instants[0]!)).filter((r) => instants.includes(r.ts.toISOString()));
    expect(stored.map((r) => r.temperature)).toEqual([4.1, 4.2]);
    expect(await get(httpPort, '/api/health', '127.0.0.5')).toEqual({ status: 200 });

    await closeAll([...plain, ...tls]);
    await Promise.all([overTcp.endAsync(true), overTls.endAsync(true)]);
  });

  it('counts Socket.IO connections (they ride HTTP connections) under the same cap', async () => {
    const connect = (from: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connectClient(`http://127.0.0.1:${httpPort}`, { path: '/socket.io', transports: ['websocket'], reconnection: false, forceNew: true, localAddress: from } as Parameters<typeof connectClient>[1]);
        sockets.push(socket);
        socket.once('connect', () => resolve(true));
        socket.once('connect_error', () => resolve(false));
      });
    const first = await Promise.all(Array.from({ length: CAP }, () => connect('127.0.0.6')));
    expect(first.every(Boolean)).toBe(true);
    expect(ctx.app.connections.counts('127.0.0.6').fromAddress).toBe(CAP);
    expect(await connect('127.0.0.6')).toBe(false);
    expect(await connect('127.0.0.7')).toBe(true);
    for (const s of sockets.splice(0)) s.close();
    await vi.waitFor(() => expect(ctx.app.connections.counts('127.0.0.6').fromAddress).toBe(0), POLL);
  });

  it('caps the connections of the whole process, whatever their addresses, and serves again below it', async () => {
    await vi.waitFor(() => expect(ctx.app.connections.counts().total).toBe(0), POLL);
    const held: Idle[] = [];
    for (let i = 0; i < MAX / CAP; i++) held.push(...(await openIdle(httpPort, `127.0.1.${i + 1}`, CAP)));
    await vi.waitFor(() => expect(ctx.app.connections.counts().total).toBe(MAX), POLL);
    expect(closedCount(held)).toBe(0);
    // A new address, far below its own cap, finds the process full.
    expect(await get(httpPort, '/api/health', '127.0.1.200')).toEqual({ error: 'ECONNRESET' });
    const beyond = await openIdle(mqttPort, '127.0.1.201', 1);
    await vi.waitFor(() => expect(closedCount(beyond)).toBe(1), POLL);
    await closeAll(held);
    await vi.waitFor(() => expect(ctx.app.connections.counts().total).toBe(0), POLL);
    expect(await get(httpPort, '/api/health', '127.0.1.200')).toEqual({ status: 200 });
  });
});

describe('connections that send nothing are closed', () => {
  let ctx: TestContext;
  let httpPort: number;
  let mqttsPort: number;

  beforeAll(async () => {
    ctx = await createTestContext({
      demo: true,
      config: {
        httpHeadersTimeoutSeconds: 1,
        httpRequestTimeoutSeconds: 2,
        httpKeepAliveTimeoutSeconds: 1,
        // Room for a TLS handshake and a key lookup on a busy machine; the trickling client drips for 20 s.
        mqttConnectTimeoutSeconds: 5,
        mqttIdleTimeoutSeconds: 1,
        mqttEnabled: true,
        mqttPort: 0,
        mqttTls: { certPath: path.join(tmp, 'cert.pem'), keyPath: path.join(tmp, 'key.pem'), port: 0, host: '127.0.0.1' },
      },
    });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    await ctx.app.mqtt!.ready();
    httpPort = (ctx.app.server.address() as { port: number }).port;
    mqttsPort = ctx.app.mqtt!.tlsPort!;
  });
  afterAll(() => ctx.close());

  it('HTTP: a silent connection gets 408 and is closed; so is one trickling its headers, and an idle keep-alive one', async () => {
    const [silent] = await openIdle(httpPort, '127.0.0.8', 1);
    const [trickling] = await openIdle(httpPort, '127.0.0.8', 1);
    // A byte at a time, never finishing the head: each byte is activity, the headers' deadline is not reset by it.
    const head = 'GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ' + 'a'.repeat(10_000);
    let i = 0;
    const drip = setInterval(() => trickling!.closed || trickling!.socket.write(head[i++ % head.length]!), 100);
    const [keptAlive] = await openIdle(httpPort, '127.0.0.8', 1);
    keptAlive!.socket.write('GET /api/health HTTP/1.1\r\nHost: x\r\n\r\n');
    try {
      await vi.waitFor(() => {
        expect(silent!.closed).toBe(true);
        expect(trickling!.closed).toBe(true);
        expect(keptAlive!.closed).toBe(true);
      }, POLL);
    } finally {
      clearInterval(drip);
    }
    expect(silent!.received).toMatch(/^HTTP\/1\.1 408 /);
    expect(trickling!.received).toMatch(/^HTTP\/1\.1 408 /);
    // The kept-alive one was answered, then closed for idling (not refused).
    expect(keptAlive!.received).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('MQTT over TLS: a connection that never starts, or trickles, its handshake is closed within the CONNECT timeout of its TCP connection', async () => {
    const [silent] = await openIdle(mqttsPort, '127.0.0.9', 1);
    // A ClientHello's first bytes, one every 100 ms: a handshake timeout that restarted with each byte would never fire.
    const [trickling] = await openIdle(mqttsPort, '127.0.0.9', 1);
    const hello = Buffer.from('16030100c4010000c00303' + '00'.repeat(200), 'hex');
    let i = 0;
    const drip = setInterval(() => trickling!.closed || trickling!.socket.write(hello.subarray(i, ++i)), 100);
    try {
      await vi.waitFor(() => {
        expect(silent!.closed).toBe(true);
        expect(trickling!.closed).toBe(true);
      }, POLL);
    } finally {
      clearInterval(drip);
    }
    // Still a working listener.
    const ok = await new Promise<boolean>((resolve) => {
      const s = connectTls({ port: mqttsPort, host: '127.0.0.1', ca: cert.cert }, () => resolve(true));
      opened.push(s);
      s.on('error', () => resolve(false));
    });
    expect(ok).toBe(true);
  });

  it('MQTT: an authenticated gateway that sends nothing, not even a PINGREQ (keep-alive 0), is closed after MQTT_IDLE_TIMEOUT_SECONDS', async () => {
    const client = await connectAsync(`mqtts://127.0.0.1:${mqttsPort}`, { username: 'gateway', password: DEMO_GATEWAY_KEY, reconnectPeriod: 0, keepalive: 0, ca: cert.cert });
    let closed = false;
    client.on('close', () => (closed = true));
    await client.publishAsync('devices/C3:00:00:00:01:03/readings', JSON.stringify({ ts: new Date(ctx.clock.now().getTime() - 5000).toISOString(), temperature: 4 }), { qos: 1 });
    await vi.waitFor(() => expect(closed).toBe(true), POLL);
    await client.endAsync(true);
  });
});

describe('connection guard helpers', () => {
  it('counts IPv4 addresses, IPv4-mapped ones as IPv4, and IPv6 per /64', () => {
    expect(addressKey('203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(addressKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8:1:2:ffff:ffff:ffff:ffff')).toBe('2001:db8:1:2::/64');
    expect(addressKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(addressKey('::1')).toBe('0:0:0:0::/64');
    expect(addressKey('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });

  it('derives CONNECTIONS_MAX from the open-files limit, the descriptors in use and a reserve', () => {
    const proc = mkdtempSync(path.join(tmpdir(), 'sentinela-proc-'));
    try {
      const limits = (soft: string) => `Limit                     Soft Limit           Hard Limit           Units\nMax open files            ${soft}                524288               files\n`;
      mkdirSync(path.join(proc, 'fd'));
      for (let n = 0; n < 300; n++) writeFileSync(path.join(proc, 'fd', String(n)), '');
      writeFileSync(path.join(proc, 'limits'), limits('65536'));
      expect(automaticConnectionsMax(proc)).toEqual({ max: 65536 - 300 - 1024, fileLimit: 65536 });
      // A small limit still serves a quarter of it.
      writeFileSync(path.join(proc, 'limits'), limits('1024'));
      expect(automaticConnectionsMax(proc)).toEqual({ max: 256, fileLimit: 1024 });
      writeFileSync(path.join(proc, 'limits'), limits('unlimited'));
      expect(automaticConnectionsMax(proc)).toEqual({ max: 0, fileLimit: null });
      expect(automaticConnectionsMax(path.join(proc, 'absent'))).toEqual({ max: 0, fileLimit: null });
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });
});
