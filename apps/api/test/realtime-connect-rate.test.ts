import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { io as connectClient } from 'socket.io-client';
import { createTestContext, type TestContext } from './context';

/**
 * New live-channel connections per address and minute (issue 9, item 4): a socket disconnected for flooding cannot
 * come straight back for another round. Real Socket.IO clients against the listening app.
 */
const CONNECTS_PER_MINUTE = 3;
let ctx: TestContext;
let url: string;
let token: string;

beforeAll(async () => {
  ctx = await createTestContext({ demo: true, config: { socketConnectsPerAddressPerMinute: CONNECTS_PER_MINUTE } });
  await ctx.app.listen({ port: 0, host: '127.0.0.1' });
  url = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
  token = (await ctx.login('joao.silva')).token;
});
afterAll(() => ctx.close());

/** Opens a socket and closes it again; answers null when it connected, else the refusal's message. */
async function connectOnce(): Promise<string | null> {
  const socket = connectClient(url, { path: '/socket.io', transports: ['websocket'], auth: { token }, reconnection: false, forceNew: true });
  try {
    return await new Promise<string | null>((resolve) => {
      socket.once('connect', () => resolve(null));
      socket.once('connect_error', (error: Error) => resolve(error.message));
    });
  } finally {
    socket.disconnect();
  }
}

describe('new connections per address', () => {
  it('refuses handshakes over the limit of the minute, even with none open', async () => {
    let handshakes = 0;
    ctx.app.io.engine.on('connection', () => handshakes++);
    for (let i = 0; i < CONNECTS_PER_MINUTE; i++) expect(await connectOnce()).toBeNull();
    // Refused in allowRequest, before the engine opened a connection (over WebSocket the client only learns that the
    // upgrade failed, not the server's message).
    expect(await connectOnce()).not.toBeNull();
    expect(handshakes).toBe(CONNECTS_PER_MINUTE);
    // The refusal cost no session: the user's HTTP calls go on.
    expect((await ctx.request('GET', '/api/travels', token)).statusCode).toBe(200);
  });
});
