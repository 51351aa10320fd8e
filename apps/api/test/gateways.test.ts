import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from './context';
import { postReadings } from './ingest-helpers';

/** Gateway keys (D5): created by admins, shown once, tenant-scoped, revoked at once. */
let ctx: TestContext;
let auroraGateway: { _id: string; key: string };

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  const { token } = await ctx.login('aurora.adm');
  const res = await ctx.request('POST', '/api/gateways', token, { name: 'Gateway Doca 1' });
  auroraGateway = res.json();
});
afterAll(() => ctx.close());

describe('gateway keys (X2)', () => {
  it('are shown once, at creation, and stored only as a hash', async () => {
    expect(auroraGateway.key).toMatch(/^sgw_[A-Za-z0-9_-]{32}$/);
    const { token } = await ctx.login('aurora.adm');
    const list = await ctx.request('GET', '/api/gateways', token);
    expect(list.statusCode).toBe(200);
    expect(list.json()).toEqual([
      {
        _id: auroraGateway._id,
        name: 'Gateway Doca 1',
        key_prefix: auroraGateway.key.slice(0, 10),
        enterprise: { _id: expect.any(String), name: 'Aurora Alimentos' },
        created_at: expect.any(String),
        revoked_at: null,
        last_seen_at: null,
        rejected_today: 0,
      },
    ]);
    expect(list.body).not.toContain(auroraGateway.key);
    const row = await ctx.db.selectFrom('gateways').selectAll().where('id', '=', auroraGateway._id).executeTakeFirstOrThrow();
    expect(row.key_hash.toString('hex')).not.toContain(Buffer.from(auroraGateway.key).toString('hex'));
  });

  it('show when a gateway was last seen and what it had rejected today', async () => {
    await postReadings(ctx, [{ mac: 'C3:00:00:00:02:01', ts: ctx.clock.now().toISOString(), temperature: 5 }], auroraGateway.key);
    const { token } = await ctx.login('aurora.adm');
    const [gateway] = (await ctx.request('GET', '/api/gateways', token)).json();
    expect(gateway).toMatchObject({ last_seen_at: ctx.clock.now().toISOString(), rejected_today: 1 });
  });

  it('need a name', async () => {
    const { token } = await ctx.login('aurora.adm');
    const res = await ctx.request('POST', '/api/gateways', token, { name: ' ' });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatch(/^Informe o nome do gateway\./);
  });
});

describe('tenant isolation', () => {
  it("an enterprise admin neither sees nor revokes another enterprise's gateway", async () => {
    const { token } = await ctx.login('vida.adm');
    expect((await ctx.request('GET', '/api/gateways', token)).json()).toEqual([]);
    const revoke = await ctx.request('DELETE', `/api/gateways/${auroraGateway._id}`, token);
    expect(revoke.statusCode).toBe(404);
    expect(revoke.json().error).toBe('Gateway não encontrado.');
    const row = await ctx.db.selectFrom('gateways').select('revoked_at').where('id', '=', auroraGateway._id).executeTakeFirstOrThrow();
    expect(row.revoked_at).toBeNull();
  });

  it("an enterprise admin cannot create a gateway for another enterprise", async () => {
    const vidaId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
    const { token } = await ctx.login('aurora.adm');
    const res = await ctx.request('POST', '/api/gateways', token, { name: 'Intruso', enterprise_id: vidaId });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe('Empresa não encontrada.');
  });

  it('ordinary users and clients may not manage gateways', async () => {
    const { token } = await ctx.login('joao.silva');
    expect((await ctx.request('GET', '/api/gateways', token)).statusCode).toBe(403);
    expect((await ctx.request('POST', '/api/gateways', token, { name: 'X' })).statusCode).toBe(403);
    expect((await ctx.request('DELETE', `/api/gateways/${auroraGateway._id}`, token)).statusCode).toBe(403);
    expect((await ctx.request('GET', '/api/gateways')).statusCode).toBe(401);
  });

  it('the super admin sees every gateway and creates one for any enterprise', async () => {
    const { token } = await ctx.login('admin');
    const names = (await ctx.request('GET', '/api/gateways', token)).json().map((g: { name: string }) => g.name).sort();
    expect(names).toEqual(['Gateway Doca 1', 'Gateway de demonstração']);
    const vidaId = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Vida Farma').executeTakeFirstOrThrow()).id;
    const created = await ctx.request('POST', '/api/gateways', token, { name: 'Vida Central', enterprise_id: vidaId });
    expect(created.statusCode).toBe(201);
    expect(created.json().enterprise).toEqual({ _id: vidaId, name: 'Vida Farma' });
    const unknown = await ctx.request('POST', '/api/gateways', token, { name: 'X', enterprise_id: '00000000-0000-4000-8000-000000000000' });
    expect(unknown.statusCode).toBe(404);
  });

  it('an admin renames its gateway; another enterprise cannot, and its name stays', async () => {
    const { token } = await ctx.login('aurora.adm');
    const renamed = await ctx.request('PUT', `/api/gateways/${auroraGateway._id}`, token, { name: '  Doca 1 — câmara fria  ' });
    expect(renamed.statusCode).toBe(200);
    expect(renamed.json()).toMatchObject({ _id: auroraGateway._id, name: 'Doca 1 — câmara fria' });
    const blank = await ctx.request('PUT', `/api/gateways/${auroraGateway._id}`, token, { name: '' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().error).toMatch(/^Informe o nome do gateway\./);

    const vida = (await ctx.login('vida.adm')).token;
    const foreign = await ctx.request('PUT', `/api/gateways/${auroraGateway._id}`, vida, { name: 'Tomado' });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('Gateway não encontrado.');
    const joao = (await ctx.login('joao.silva')).token;
    expect((await ctx.request('PUT', `/api/gateways/${auroraGateway._id}`, joao, { name: 'Tomado' })).statusCode).toBe(403);
    const row = await ctx.db.selectFrom('gateways').select('name').where('id', '=', auroraGateway._id).executeTakeFirstOrThrow();
    expect(row.name).toBe('Doca 1 — câmara fria');
  });

  it('tell where gateways send readings, from the configuration (MQTT off here)', async () => {
    const { token } = await ctx.login('aurora.adm');
    const res = await ctx.request('GET', '/api/gateways/connection', token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      http: { url: 'http://sentinela.test/api/ingest/readings' },
      mqtt: null,
      ruuvi: { http_url: 'http://sentinela.test/api/ingest/ruuvi', mqtt_topic: null },
    });
    expect((await ctx.request('GET', '/api/gateways/connection', (await ctx.login('joao.silva')).token)).statusCode).toBe(403);
  });

  it('revoking is immediate', async () => {
    const { token } = await ctx.login('aurora.adm');
    expect((await ctx.request('DELETE', `/api/gateways/${auroraGateway._id}`, token)).json()).toEqual({ success: true });
    const [gateway] = (await ctx.request('GET', '/api/gateways', token)).json();
    expect(gateway.revoked_at).toBe(ctx.clock.now().toISOString());
    const res = await postReadings(ctx, [{ mac: 'C3:00:00:00:01:01', ts: ctx.clock.now().toISOString(), temperature: 5 }], auroraGateway.key);
    expect(res.statusCode).toBe(401);
  });
});

describe('connection details with the embedded broker', () => {
  it('give the public host, the port the broker listens on and the topic', async () => {
    const withMqtt = await createTestContext({ demo: true, config: { mqttEnabled: true, mqttPort: 0, publicUrl: 'https://monitor.example.com.br' } });
    try {
      await withMqtt.app.mqtt!.ready();
      const { token } = await withMqtt.login('admin');
      const res = await withMqtt.request('GET', '/api/gateways/connection', token);
      expect(res.json()).toEqual({
        http: { url: 'https://monitor.example.com.br/api/ingest/readings' },
        mqtt: { host: 'monitor.example.com.br', port: withMqtt.app.mqtt!.port, tls_port: null, topic: 'devices/{mac}/readings' },
        ruuvi: { http_url: 'https://monitor.example.com.br/api/ingest/ruuvi', mqtt_topic: 'ruuvi/{gateway_mac}/{mac}' },
      });
      expect(withMqtt.app.mqtt!.port).toBeGreaterThan(0);
    } finally {
      await withMqtt.close();
    }
  });
});
