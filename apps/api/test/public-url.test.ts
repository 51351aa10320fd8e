import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config';
import { adoptListenAddress, listenUrl } from '../src/config/public-url';
import { createTestContext, type TestContext } from './context';
import { deviceByMac } from './ingest-helpers';
import { startSmtpServer, type TestSmtpServer } from './smtp-server';

/**
 * X14 Operations, the server's own address (ADR 69): without PUBLIC_URL, links in e-mails, monitor links and gateway
 * instructions name the address the server listens on (with the port it got), never a fixed localhost:3000; in
 * production without the demo, PUBLIC_URL is required and the start-up says so.
 *
 * Database-agnostic (ADR 85): the listen address and the links built from it; no rule here reads the database.
 */
describe('X14 PUBLIC_URL and the listen address (configuration)', () => {
  it('derives the links from HOST and PORT when PUBLIC_URL is unset', () => {
    expect(loadConfig({ PORT: '8080' })).toMatchObject({ publicUrl: 'http://localhost:8080', publicUrlFromListen: true });
    expect(loadConfig({ HOST: '192.168.0.10', PORT: '3100' }).publicUrl).toBe('http://192.168.0.10:3100');
    expect(loadConfig({ HOST: '::', PORT: '3000' }).publicUrl).toBe('http://localhost:3000');
    expect(loadConfig({ HOST: 'fd00::5' }).publicUrl).toBe('http://[fd00::5]:3000');
    expect(loadConfig({ PUBLIC_URL: 'https://sentinela.example.com/' })).toMatchObject({ publicUrl: 'https://sentinela.example.com', publicUrlFromListen: false });
    expect(listenUrl('0.0.0.0', 4000)).toBe('http://localhost:4000');
  });

  it('requires PUBLIC_URL in production without the demo, saying what to set', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/PUBLIC_URL: required in production .*e\.g\. https:\/\/sentinela\.example\.com/);
    expect(() => loadConfig({ NODE_ENV: 'production', DEMO: '0', DATABASE_URL: 'postgres://x@db/sentinela' })).toThrow(/PUBLIC_URL/);
    // `npm start` with no settings: production with the demo on the embedded database still starts.
    expect(loadConfig({ NODE_ENV: 'production', DEMO: '1' }).publicUrlFromListen).toBe(true);
    expect(loadConfig({ NODE_ENV: 'production', PUBLIC_URL: 'https://sentinela.example.com' }).publicUrl).toBe('https://sentinela.example.com');
  });
});

describe('X14 links name the listen address without PUBLIC_URL', () => {
  let ctx: TestContext;
  let smtp: TestSmtpServer;
  let base: string;
  beforeAll(async () => {
    smtp = await startSmtpServer();
    const derived = loadConfig({ HOST: '127.0.0.1', PORT: '0' });
    ctx = await createTestContext({ demo: true, config: { host: derived.host, port: 0, publicUrl: derived.publicUrl, publicUrlFromListen: true, smtpUrl: smtp.url } });
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    base = adoptListenAddress(ctx.services.config, ctx.app.server.address());
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(base).not.toBe('http://127.0.0.1:0');
  });
  afterAll(async () => {
    await ctx?.close();
    await smtp?.close();
  });

  it('in the gateway instructions, monitor links and e-mails', async () => {
    const { token } = await ctx.login('aurora.adm');
    const connection = await ctx.request('GET', '/api/gateways/connection', token);
    expect(connection.statusCode).toBe(200);
    expect(connection.json().http.url).toBe(`${base}/api/ingest/readings`);

    const device = await deviceByMac(ctx, 'C3:00:00:00:01:02');
    const link = await ctx.request('POST', '/api/monitor-links', token, { name: 'Sala de controle', device_ids: [device.id], expires_at: new Date(ctx.clock.now().getTime() + 86_400_000).toISOString() });
    expect(link.statusCode, link.body).toBe(201);
    expect(link.json().url).toMatch(new RegExp(`^${base.replace(/\./g, '\\.')}/`));

    // A user created by an administrator with a password gets the confirmation link and the sign-in address.
    const body = { name: 'Bruno Novo', username: 'bruno.novo', email: 'bruno.novo@aurora.example', phone: '(11) 97777-1111', password: 'Ignorada@1', profile: { _id: 3 }, available_devices: [device.id] };
    const created = await ctx.request('POST', '/api/user/create', token, body);
    expect(created.statusCode, created.body).toBe(200);
    const enterpriseId = (await ctx.login('aurora.adm')).user.enterprise!._id;
    await ctx.request('POST', `/api/client/link/${enterpriseId}`, token, { users: [{ id: created.json().user._id, isOwner: false }] });
    const mail = await smtp.waitForMail('bruno.novo@aurora.example', 'Sua conta no Sentinela foi criada');
    expect(mail.text).toContain(`${base}/confirmation/`);
    expect(mail.text).toContain(`${base}/login`);
    expect(mail.text).not.toContain('localhost:3000');
  });
});
