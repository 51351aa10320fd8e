import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { sql } from 'kysely';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  WEBHOOK_RETRY_DELAYS_SECONDS,
  webhookPayload,
  type CreatedApiToken,
  type CreatedWebhook,
  type Webhook,
  type WebhookDelivery,
  type WebhookDeliveryEvent,
} from '@sentinela/contract';
import { createTestContext, type TestContext } from './context';
import { at, postReadings } from './ingest-helpers';
import { waitForReport } from './report-helpers';
import { CODES, MACS, travelId } from './travel-helpers';
import { startWebhookReceiver, type ReceivedWebhook, type WebhookReceiver } from './webhook-receiver';

/**
 * X13 webhooks (ADR 66): signed per the Standard Webhooks specification and checked here as a receiver checks them
 * (the `standardwebhooks` package), written in the event's transaction and delivered by the job queue, retried on
 * the schedule with the same webhook-id, logged, disabled after days of failures. Aurora's and Vida Farma's webhooks
 * listen side by side: neither ever hears of the other's events.
 */
let ctx: TestContext;
let receiver: WebhookReceiver;
let aurora: string;
let vida: string;
let signedInAt = -Infinity;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  ctx = await createTestContext({ demo: true });
});
afterAll(async () => {
  await ctx?.close();
  await receiver?.close();
});
beforeEach(async () => {
  ctx.clock.advance(60_000);
  if (ctx.clock.now().getTime() - signedInAt < 3 * 60_000) return;
  signedInAt = ctx.clock.now().getTime();
  aurora = (await ctx.login('aurora.adm')).token;
  vida = (await ctx.login('vida.adm')).token;
});

async function createWebhook(session: string, path: string, events: readonly string[]): Promise<CreatedWebhook> {
  const res = await ctx.request('POST', '/api/webhooks', session, { url: receiver.url(path), events, description: `Receptor ${path}` });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

async function deliveries(session: string, webhookId: string): Promise<WebhookDelivery[]> {
  const res = await ctx.request('GET', `/api/webhooks/${webhookId}/deliveries`, session);
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** Polls until `check` passes (the queue works on its own time); fails after `timeoutMs`. */
async function eventually<T>(read: () => Promise<T> | T, check: (value: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (check(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms: ${JSON.stringify(value).slice(0, 800)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Verifies a received request exactly as a receiver does, and checks its body against the event's schema. */
function verified<T extends WebhookDeliveryEvent>(secret: string, request: ReceivedWebhook, type: T) {
  const headers = {
    'webhook-id': String(request.headers['webhook-id']),
    'webhook-timestamp': String(request.headers['webhook-timestamp']),
    'webhook-signature': String(request.headers['webhook-signature']),
  };
  const payload = new StandardWebhook(secret).verify(request.body, headers);
  return webhookPayload(type).parse(payload);
}

/** Pauses Aurora's travel in progress, or resumes it when paused: a travel.status_changed each time. */
async function toggleTravel(session: string): Promise<void> {
  const id = await travelId(ctx, CODES.auroraInProgress);
  const { status } = await ctx.db.selectFrom('travels').select('status').where('id', '=', id).executeTakeFirstOrThrow();
  const res = await ctx.request('POST', `/api/travels/${id}/status`, session, { status: status === 1 ? 3 : 1 });
  expect(res.statusCode, res.body).toBe(200);
}

/** A webhook's log read as its administrators see it, without a session (the clock jumps hours in some tests). */
async function logOf(webhookId: string): Promise<WebhookDelivery[]> {
  const { enterprise_id } = await ctx.db.selectFrom('webhooks').select('enterprise_id').where('id', '=', webhookId).executeTakeFirstOrThrow();
  return ctx.services.webhooks.deliveries({ kind: 'enterprise', enterpriseId: enterprise_id }, webhookId);
}

const ofType = (path: string, type: string) => receiver.at(path).filter((r) => (JSON.parse(r.body) as { type: string }).type === type);

describe('X13 managing webhooks', () => {
  it('answers the signing secret once, lists without it, and keeps each enterprise’s to itself', async () => {
    const created = await createWebhook(aurora, '/manage', ['alarm.opened', 'travel.status_changed']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(created.secret.slice(6), 'base64')).toHaveLength(32);
    expect(created).toMatchObject({ url: receiver.url('/manage'), events: ['alarm.opened', 'travel.status_changed'], enabled: true, description: 'Receptor /manage' });
    const list = await ctx.request('GET', '/api/webhooks', aurora);
    expect(list.body).not.toContain(created.secret);
    expect((list.json() as Webhook[]).map((w) => w._id)).toContain(created._id);
    expect((await ctx.request('GET', '/api/webhooks', vida)).json()).not.toContainEqual(expect.objectContaining({ _id: created._id }));
    // Vida Farma can neither read, change, test nor delete it.
    for (const [method, url, body] of [
      ['GET', `/api/webhooks/${created._id}/deliveries`],
      ['PUT', `/api/webhooks/${created._id}`, { enabled: false }],
      ['POST', `/api/webhooks/${created._id}/test`],
      ['DELETE', `/api/webhooks/${created._id}`],
    ] as const) {
      const res = await ctx.request(method, url, vida, body);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().error).toBe('Webhook não encontrado.');
    }
    expect((await ctx.request('DELETE', `/api/webhooks/${created._id}`, aurora)).statusCode).toBe(200);
    expect((await ctx.request('GET', `/api/webhooks/${created._id}/deliveries`, aurora)).statusCode).toBe(404);
  });

  it('refuses a bad URL, unknown or repeated events with pt-BR 400s, and is for administrators with a session only', async () => {
    const cases: [unknown, string][] = [
      [{ url: 'ftp://example.com/x', events: ['alarm.opened'] }, 'URL inválida: use um endereço https:// completo.'],
      [{ url: 'not a url', events: ['alarm.opened'] }, 'URL inválida: use um endereço https:// completo.'],
      [{ url: `https://example.com/${'a'.repeat(2000)}`, events: ['alarm.opened'] }, 'A URL deve ter no máximo 2000 caracteres.'],
      [{ url: 'https://example.com/x', events: ['alarm.exploded'] }, 'Evento desconhecido. Eventos válidos: alarm.opened, alarm.ended, alarm.acknowledged, device.silent, travel.status_changed, report.ready.'],
      [{ url: 'https://example.com/x', events: ['webhook.test'] }, 'Evento desconhecido. Eventos válidos: alarm.opened, alarm.ended, alarm.acknowledged, device.silent, travel.status_changed, report.ready.'],
      [{ url: 'https://example.com/x', events: [] }, 'Escolha ao menos um evento.'],
      [{ url: 'https://example.com/x', events: ['alarm.opened', 'alarm.opened'] }, 'Evento repetido.'],
      [{ url: 'https://example.com/x', events: ['alarm.opened'], description: 'a\u0000b' }, 'A descrição contém caracteres inválidos.'],
    ];
    for (const [body, message] of cases) {
      const res = await ctx.request('POST', '/api/webhooks', aurora, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 100)).toBe(400);
      expect(res.json().issues?.[0]?.message ?? res.json().error).toBe(message);
    }
    const joao = (await ctx.login('joao.silva')).token;
    expect((await ctx.request('POST', '/api/webhooks', joao, { url: 'https://example.com/x', events: ['alarm.opened'] })).statusCode).toBe(403);
    const token = (await ctx.request('POST', '/api/api-tokens', aurora, { name: 'ERP', scopes: ['alarms:read'] })).json() as CreatedApiToken;
    const byToken = await ctx.request('POST', '/api/webhooks', token.token, { url: 'https://example.com/x', events: ['alarm.opened'] });
    expect(byToken.statusCode).toBe(403);
    expect(byToken.json().error).toBe('Esta operação não aceita tokens de API; use uma sessão.');
  });

  it('without WEBHOOK_ALLOW_PRIVATE takes only https to public addresses', async () => {
    // The one outgoing guard (ADR 55) decides: none of its "allow private" settings on.
    const strict = await createTestContext({ demo: true, config: { webhookAllowPrivate: false, outgoingAllowPrivate: false, pushAllowHttpEndpoints: false } });
    try {
      const session = (await strict.login('aurora.adm')).token;
      for (const url of ['http://example.com/hook', 'https://127.0.0.1/hook', 'https://10.1.2.3/hook', 'https://[::1]/hook', 'https://localhost/hook', 'https://intranet/hook', 'https://user:pass@example.com/hook', 'https://[::ffff:7f00:1]/hook', 'https://0x7f.1/hook', 'https://0177.0.0.1/hook', 'https://erp.example.com:8443/hook']) {
        const res = await strict.request('POST', '/api/webhooks', session, { url, events: ['alarm.opened'] });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().error).toBe('URL não permitida: use um endereço https:// público (sem usuário e senha, fora da rede interna).');
      }
      expect((await strict.request('POST', '/api/webhooks', session, { url: 'https://erp.example.com/sentinela', events: ['alarm.opened'] })).statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });
});

describe('X13 events reach the webhooks, signed', () => {
  it('alarm.opened and alarm.ended from ingestion, alarm.acknowledged from a person; Vida Farma hears none of them', async () => {
    const hook = await createWebhook(aurora, '/aurora-alarms', ['alarm.opened', 'alarm.ended', 'alarm.acknowledged']);
    const vidaHook = await createWebhook(vida, '/vida-all', ['alarm.opened', 'alarm.ended', 'alarm.acknowledged', 'device.silent', 'travel.status_changed', 'report.ready']);
    await postReadings(ctx, [{ mac: MACS.truck2, ts: at(ctx, -20), temperature: 11.5, humidity: 50 }]);
    const [opened] = await eventually(() => ofType('/aurora-alarms', 'alarm.opened'), (l) => l.length === 1);
    const payload = verified(hook.secret, opened!, 'alarm.opened');
    expect(payload.data).toMatchObject({
      alarm: { type: 'temperature_high', active: true, started_at: at(ctx, -20), ended_at: null, temperature: { min: 11.5, max: 11.5 }, acknowledged: null },
      device: { mac: MACS.truck2, name: 'Baú Caminhão 02' },
    });
    const alarmId = payload.data.alarm._id;

    ctx.clock.advance(1000);
    const ack = await ctx.request('POST', `/api/alarms/${alarmId}/acknowledge`, aurora, { message: 'Porta aberta na doca' });
    expect(ack.statusCode).toBe(200);
    const [acknowledged] = await eventually(() => ofType('/aurora-alarms', 'alarm.acknowledged'), (l) => l.length === 1);
    expect(verified(hook.secret, acknowledged!, 'alarm.acknowledged').data.alarm.acknowledged).toMatchObject({ message: 'Porta aberta na doca', by: { name: expect.any(String) } });

    ctx.clock.advance(1000);
    await postReadings(ctx, [{ mac: MACS.truck2, ts: at(ctx, -5), temperature: 5 }]);
    const [ended] = await eventually(() => ofType('/aurora-alarms', 'alarm.ended'), (l) => l.length === 1);
    expect(verified(hook.secret, ended!, 'alarm.ended').data.alarm).toMatchObject({ _id: alarmId, active: false, ended_at: at(ctx, -5) });
    // Each delivery has its own webhook-id; the log says they succeeded at their first attempt.
    expect(new Set([opened, acknowledged, ended].map((r) => r!.headers['webhook-id'])).size).toBe(3);
    const log = await eventually(() => deliveries(aurora, hook._id), (l) => l.length === 3 && l.every((d) => d.status === 'succeeded'));
    expect(log.map((d) => [d.event, d.attempt, d.response_code])).toEqual([['alarm.ended', 1, 200], ['alarm.acknowledged', 1, 200], ['alarm.opened', 1, 200]]);
    expect(await deliveries(vida, vidaHook._id)).toEqual([]);
    expect(receiver.at('/vida-all')).toEqual([]);
    await ctx.request('DELETE', `/api/webhooks/${vidaHook._id}`, vida);
    await ctx.request('DELETE', `/api/webhooks/${hook._id}`, aurora);
  }, 120_000);

  it('device.silent and alarm.opened from the no-data check, each enterprise its own devices only', async () => {
    const auroraHook = await createWebhook(aurora, '/aurora-silent', ['device.silent']);
    const vidaHook = await createWebhook(vida, '/vida-silent', ['device.silent']);
    ctx.clock.advance(2 * 3600_000);
    expect(await ctx.services.alarms.checkNoData()).toBeGreaterThan(0);
    const devices = await ctx.db
      .selectFrom('devices as d')
      .innerJoin('enterprises as e', 'e.id', 'd.enterprise_id')
      .select(['d.mac', 'e.name'])
      .where('d.no_data_minutes', '>', 0)
      .where('d.last_sync_at', 'is not', null)
      .execute();
    const expected = (enterprise: string) => devices.filter((d) => d.name === enterprise).map((d) => d.mac).sort();
    expect(expected('Aurora Alimentos')).toEqual([MACS.truck1, MACS.truck2, MACS.chamber, MACS.freezer].sort());
    const auroraGot = await eventually(() => receiver.at('/aurora-silent'), (l) => l.length >= expected('Aurora Alimentos').length);
    const vidaGot = await eventually(() => receiver.at('/vida-silent'), (l) => l.length >= expected('Vida Farma').length);
    const auroraMacs = auroraGot.map((r) => verified(auroraHook.secret, r, 'device.silent').data.device.mac).sort();
    const vidaMacs = vidaGot.map((r) => verified(vidaHook.secret, r, 'device.silent').data.device.mac).sort();
    expect(auroraMacs).toEqual(expected('Aurora Alimentos'));
    expect(vidaMacs).toEqual(expected('Vida Farma'));
    expect(vidaMacs).toContain(MACS.vaccines);
    const one = verified(auroraHook.secret, auroraGot[0]!, 'device.silent').data;
    expect(one.no_data_minutes).toBe(60);
    // Bring the devices back so later tests start with no silence alarm.
    await postReadings(ctx, devices.map(({ mac }) => ({ mac, ts: at(ctx, 0), temperature: mac === MACS.chamber || mac === MACS.freezer ? -18 : 5, humidity: 50 })));
    for (const hook of [[aurora, auroraHook], [vida, vidaHook]] as const) await ctx.request('DELETE', `/api/webhooks/${hook[1]._id}`, hook[0]);
  }, 120_000);

  it('travel.status_changed from a status change made with an API token', async () => {
    const hook = await createWebhook(aurora, '/aurora-travels', ['travel.status_changed']);
    const token = ((await ctx.request('POST', '/api/api-tokens', aurora, { name: 'TMS', scopes: ['travels:write'] })).json() as CreatedApiToken).token;
    const id = await travelId(ctx, CODES.auroraInProgress);
    const paused = await ctx.request('POST', `/api/travels/${id}/status`, token, { status: 3 });
    expect(paused.statusCode, paused.body).toBe(200);
    const [received] = await eventually(() => receiver.at('/aurora-travels'), (l) => l.length === 1);
    expect(verified(hook.secret, received!, 'travel.status_changed').data.travel).toMatchObject({
      _id: id, code: CODES.auroraInProgress, status: 3, status_name: 'Pausada', previous_status: 1, previous_status_name: 'Em andamento', finished_at: null,
    });
    expect((await ctx.request('POST', `/api/travels/${id}/status`, aurora, { status: 1 })).statusCode).toBe(200);
    await eventually(() => receiver.at('/aurora-travels'), (l) => l.length === 2);
  });

  it('report.ready when a report is generated, with the address of its file', async () => {
    const hook = await createWebhook(aurora, '/aurora-reports', ['report.ready']);
    const vidaHook = await createWebhook(vida, '/vida-reports', ['report.ready']);
    const queued = await ctx.request('GET', `/api/beacon-device/history/mac/${MACS.truck1}/pdf`, aurora);
    expect(queued.statusCode, queued.body).toBe(200);
    const reportId = (queued.json() as { _id: string })._id;
    expect((await waitForReport(ctx, aurora, reportId)).status.id).toBe(2);
    const [received] = await eventually(() => receiver.at('/aurora-reports'), (l) => l.length === 1);
    expect(verified(hook.secret, received!, 'report.ready').data.report).toMatchObject({
      _id: reportId, status: 'generated', error: null, file_url: `http://sentinela.test/api/report/files/${reportId}`, device: { mac: MACS.truck1 },
    });
    expect(receiver.at('/vida-reports')).toEqual([]);
    expect(await deliveries(vida, vidaHook._id)).toEqual([]);
  });
});

describe('X13 delivery: retries, log, redelivery, test', () => {
  it('retries a receiver that fails first and then accepts, with the same webhook-id, after the first delay', async () => {
    const counted = async (outcome: string) =>
      (await ctx.services.metrics.webhookDeliveries.get()).values.find((v) => v.labels.outcome === outcome)?.value ?? 0;
    // The counters are the process's: the earlier tests' last deliveries (due, or in flight: received, their outcome
    // not recorded yet) must be counted before the baseline is read. An attempt is counted right after its outcome
    // commits, with its attempt row.
    await eventually(
      async () =>
        (
          await sql<{ id: string }>`
            SELECT d.id FROM webhook_deliveries d
            WHERE d.status = 'pending'
              AND (d.next_attempt_at <= ${ctx.clock.now().toISOString()}::timestamptz
                OR d.attempts > (SELECT count(*) FROM webhook_attempts a WHERE a.delivery_id = d.id))`.execute(ctx.db)
        ).rows,
      (unsettled) => unsettled.length === 0,
    );
    const [retriedBefore, deliveredBefore] = [await counted('retry'), await counted('delivered')];
    const hook = await createWebhook(aurora, '/flaky', ['alarm.opened']);
    receiver.answer('/flaky', 500);
    await postReadings(ctx, [{ mac: MACS.truck2, ts: at(ctx, -1), temperature: 20 }]);
    const got = await eventually(() => receiver.at('/flaky'), (l) => l.length === 2);
    expect(got.map((r) => r.answered)).toEqual([500, 200]);
    expect(got[0]!.headers['webhook-id']).toBe(got[1]!.headers['webhook-id']);
    expect(verified(hook.secret, got[1]!, 'alarm.opened').type).toBe('alarm.opened');
    // Signed again for the retry: its timestamp is its own, at least the first delay after the first attempt.
    expect(Number(got[1]!.headers['webhook-timestamp']) - Number(got[0]!.headers['webhook-timestamp'])).toBeGreaterThanOrEqual(WEBHOOK_RETRY_DELAYS_SECONDS[0] - 1);
    const [delivery] = await eventually(() => deliveries(aurora, hook._id), (l) => l[0]?.status === 'succeeded');
    expect(delivery).toMatchObject({ attempt: 2, response_code: 200, error: null, message_id: got[0]!.headers['webhook-id'] });
    expect(delivery!.attempts.map((a) => [a.attempt, a.response_code, a.manual])).toEqual([[1, 500, false], [2, 200, false]]);
    expect(delivery!.attempts[0]!.error).toBe('O destino respondeu 500: recusado pelo receptor de teste');
    // Each attempt in the metrics (issue 25 point 1): one to retry, one delivered.
    expect(await counted('retry')).toBe(retriedBefore + 1);
    expect(await counted('delivered')).toBe(deliveredBefore + 1);
    // The alarm is closed again for the tests that follow.
    await postReadings(ctx, [{ mac: MACS.truck2, ts: at(ctx, 0), temperature: 5 }]);
    await ctx.request('DELETE', `/api/webhooks/${hook._id}`, aurora);
  }, 120_000);

  it('follows the schedule 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up (driven under the manual clock)', async () => {
    const hook = await createWebhook(aurora, '/down', ['travel.status_changed']);
    receiver.answer('/down', 503, 503, 503, 503, 503, 503, 503, 503);
    await toggleTravel(aurora);
    const attemptsOf = async () => (await logOf(hook._id))[0];
    // Attempt 1 by the queue, at once; then each attempt is driven when the clock reaches its due time.
    let delivery = await eventually(attemptsOf, (d) => d?.attempts.length === 1);
    for (let n = 1; n <= WEBHOOK_RETRY_DELAYS_SECONDS.length; n++) {
      const delay = WEBHOOK_RETRY_DELAYS_SECONDS[n - 1]!;
      expect(delivery!.status).toBe('pending');
      // The queue's own job for the 5 s retry runs on the real clock and may already hold attempt 2 (its due time is
      // then the attempt's lease): the due time is the schedule's while no attempt is in flight.
      if (delivery!.attempt === delivery!.attempts.length) expect(Date.parse(delivery!.next_attempt_at!) - Date.parse(delivery!.last_attempt_at!)).toBe(delay * 1000);
      else expect(n).toBe(1);
      // The queue holds the next attempt back by the same delay (pg-boss start_after).
      const { rows: [job] } = await sql<{ start_after: Date; created_on: Date }>`
        SELECT start_after, created_on FROM pgboss.job WHERE singleton_key = ${`webhook:${delivery!._id}:${n + 1}`}`.execute(ctx.db);
      expect(job, `job of attempt ${n + 1}`).toBeDefined();
      expect(Math.round((job!.start_after.getTime() - job!.created_on.getTime()) / 1000)).toBe(delay);
      ctx.clock.advance(delay * 1000);
      await ctx.services.webhooks.attempt(delivery!._id, n + 1);
      delivery = await eventually(attemptsOf, (d) => d?.attempts.length === n + 1);
    }
    expect(delivery).toMatchObject({ status: 'failed', attempt: 8, response_code: 503, next_attempt_at: null });
    expect(delivery!.attempts.map((a) => a.response_code)).toEqual([503, 503, 503, 503, 503, 503, 503, 503]);
    const ids = new Set(receiver.at('/down').map((r) => r.headers['webhook-id']));
    expect(ids.size).toBe(1);
    // Redelivery: one more attempt, by hand, same id; the receiver is back.
    aurora = (await ctx.login('aurora.adm')).token;
    vida = (await ctx.login('vida.adm')).token;
    signedInAt = ctx.clock.now().getTime();
    const again = await ctx.request('POST', `/api/webhooks/${hook._id}/deliveries/${delivery!._id}/redeliver`, aurora);
    expect(again.statusCode, again.body).toBe(202);
    delivery = await eventually(attemptsOf, (d) => d?.status === 'succeeded');
    expect(delivery!.attempts.at(-1)).toMatchObject({ attempt: 9, response_code: 200, manual: true });
    expect(new Set(receiver.at('/down').map((r) => r.headers['webhook-id'])).size).toBe(1);
    // Another enterprise cannot redeliver it; a pending or unknown one is refused.
    expect((await ctx.request('POST', `/api/webhooks/${hook._id}/deliveries/${delivery!._id}/redeliver`, vida)).statusCode).toBe(404);
    expect((await ctx.request('POST', `/api/webhooks/${hook._id}/deliveries/not-an-id/redeliver`, aurora)).json().issues[0].message).toBe('Entrega não encontrada.');
    await ctx.request('DELETE', `/api/webhooks/${hook._id}`, aurora);
  }, 120_000);

  it('counts a receiver that never answers as a failure after the time limit', async () => {
    const hook = await createWebhook(aurora, '/hangs', ['alarm.opened']);
    receiver.answer('/hangs', 'hang');
    const test = await ctx.request('POST', `/api/webhooks/${hook._id}/test`, aurora);
    expect(test.statusCode).toBe(202);
    const [delivery] = await eventually(() => deliveries(aurora, hook._id), (l) => l[0]?.status === 'failed');
    expect(delivery).toMatchObject({ event: 'webhook.test', attempt: 1, response_code: null, error: 'Sem resposta em 2 s.' });
    await ctx.request('DELETE', `/api/webhooks/${hook._id}`, aurora);
  }, 120_000);

  it('a receiver that cannot be reached is logged with a generic sentence, never the network’s words (issue 21 item 7)', async () => {
    // A port nothing listens on: the connection is refused, which must not reach the enterprise's log (a port scanner).
    const closedPort = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as { port: number };
        probe.close(() => resolve(port));
      });
    });
    const created = await ctx.request('POST', '/api/webhooks', aurora, { url: `http://127.0.0.1:${closedPort}/fechado`, events: ['alarm.opened'] });
    expect(created.statusCode, created.body).toBe(201);
    const hook = created.json() as CreatedWebhook;
    expect((await ctx.request('POST', `/api/webhooks/${hook._id}/test`, aurora)).statusCode).toBe(202);
    const [delivery] = await eventually(() => deliveries(aurora, hook._id), (l) => l[0]?.status === 'failed');
    expect(delivery).toMatchObject({ attempt: 1, response_code: null, error: 'Não foi possível se comunicar com o serviço externo.' });
    expect(JSON.stringify(delivery)).not.toMatch(/ECONNREFUSED|ECONNRESET|connect /i);
    await ctx.request('DELETE', `/api/webhooks/${hook._id}`, aurora);
  }, 120_000);

  it('"Testar" sends a signed webhook.test at once, one attempt, logged', async () => {
    const hook = await createWebhook(aurora, '/test', ['report.ready']);
    const res = await ctx.request('POST', `/api/webhooks/${hook._id}/test`, aurora);
    expect(res.statusCode, res.body).toBe(202);
    expect(res.json()).toMatchObject({ event: 'webhook.test', status: 'pending', attempt: 0 });
    const [received] = await eventually(() => receiver.at('/test'), (l) => l.length === 1);
    expect(verified(hook.secret, received!, 'webhook.test').data).toEqual({ webhook_id: hook._id, message: 'Teste de webhook do Sentinela.' });
    // A tampered body or another secret fails verification, as it must for receivers.
    expect(() => new StandardWebhook(hook.secret).verify(`${received!.body} `, received!.headers as Record<string, string>)).toThrow();
    const other = await createWebhook(aurora, '/other', ['report.ready']);
    expect(() => new StandardWebhook(other.secret).verify(received!.body, received!.headers as Record<string, string>)).toThrow();
    await eventually(() => deliveries(aurora, hook._id), (l) => l[0]?.status === 'succeeded');
    for (const h of [hook, other]) await ctx.request('DELETE', `/api/webhooks/${h._id}`, aurora);
  }, 120_000);
});

describe('X13 a webhook failing for days', () => {
  it('is disabled, its pending deliveries stop, and its enterprise’s administrators are e-mailed', async () => {
    const hook = await createWebhook(aurora, '/dead', ['travel.status_changed']);
    receiver.setFallback(500);
    try {
      await toggleTravel(aurora);
      await eventually(() => deliveries(aurora, hook._id), (l) => l[0]?.attempts.length === 1);
      const listed = ((await ctx.request('GET', '/api/webhooks', aurora)).json() as Webhook[]).find((w) => w._id === hook._id)!;
      expect(listed.failing_since).toBe(ctx.clock.now().toISOString());

      // Five days later, still failing: the next failed attempt disables it.
      ctx.clock.advance(5 * 86_400_000);
      aurora = (await ctx.login('aurora.adm')).token;
      signedInAt = ctx.clock.now().getTime();
      await toggleTravel(aurora);
      const disabled = await eventually(
        async () => ((await ctx.request('GET', '/api/webhooks', aurora)).json() as Webhook[]).find((w) => w._id === hook._id)!,
        (w) => !w.enabled,
      );
      expect(disabled.disabled_reason).toMatch(/^Desativado automaticamente: falhas sem nenhum sucesso desde /);
      const log = await deliveries(aurora, hook._id);
      expect(log.every((d) => d.status === 'failed')).toBe(true);
      // The first event's delivery, still waiting for its next attempt, is not attempted any more.
      expect(log.at(-1)!.error).toBe('Webhook desativado.');
      // The administrators' e-mail, through the outbox.
      const outbox = ctx.services.config.mailOutboxDir;
      const mail = await eventually(
        () => readdirSync(outbox).map((f) => readFileSync(path.join(outbox, f), 'utf8')).filter((m) => m.includes('Subject: Webhook desativado no Sentinela')),
        (l) => l.length > 0,
      );
      expect(mail[0]).toMatch(/^To: .*aurora/im);
      // A disabled webhook hears of nothing and cannot be tested until enabled again.
      expect((await ctx.request('POST', `/api/webhooks/${hook._id}/test`, aurora)).json().error).toBe('Este webhook está desativado. Ative-o antes de testar.');
      const enabled = await ctx.request('PUT', `/api/webhooks/${hook._id}`, aurora, { enabled: true });
      expect(enabled.json()).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    } finally {
      receiver.setFallback(200);
    }
  }, 120_000);
});

describe('X13 the README’s receiver', () => {
  it('verifies a real delivery with standardwebhooks and refuses a forged one', async () => {
    const readme = readFileSync(path.join(import.meta.dirname, '../../../README.md'), 'utf8');
    const code = /A receiver in Node[\s\S]*?```js\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(code, 'the README has the receiver').toBeDefined();
    expect(code!.split('\n').length).toBeLessThanOrEqual(30);
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const hook = await createWebhook(aurora, '/unused', ['report.ready']);
    const child = spawn(process.execPath, ['--input-type=module', '-e', code!], {
      cwd: import.meta.dirname,
      env: { ...process.env, PORT: String(port), SENTINELA_WEBHOOK_SECRET: hook.secret },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      const url = `http://127.0.0.1:${port}/sentinela`;
      await eventually(() => fetch(url, { method: 'POST', body: '{}' }).then((r) => r.status, () => 0), (status) => status !== 0, 30_000);
      // Forged: no signature, or a signature made with another secret.
      expect((await fetch(url, { method: 'POST', body: '{"type":"alarm.opened"}' })).status).toBe(401);
      const put = await ctx.request('PUT', `/api/webhooks/${hook._id}`, aurora, { url });
      expect(put.statusCode, put.body).toBe(200);
      expect((await ctx.request('POST', `/api/webhooks/${hook._id}/test`, aurora)).statusCode).toBe(202);
      const [delivery] = await eventually(() => deliveries(aurora, hook._id), (l) => l[0]?.status === 'succeeded');
      expect(delivery!.response_code).toBe(204);
      await eventually(() => output, (text) => text.includes('webhook.test'));
      expect(output).toContain(`"webhook_id":"${hook._id}"`);
    } finally {
      child.kill();
      await ctx.request('DELETE', `/api/webhooks/${hook._id}`, aurora);
    }
  }, 120_000);
});
