import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_TRAIL_MESSAGES } from '@sentinela/contract';
import { DEMO_PASSWORD } from '../src/seed/demo';
import { createTestContext, type TestContext } from './context';
import { walkableRoutes, type WalkedRoute } from './route-walk';
import { CODES, MACS, PLACES, deviceId, travelId, userId } from './travel-helpers';

/**
 * X11, issue 22 point 5 (ADR 0061, 0063): a route walk in GxP mode. Every route that writes is either called here by a
 * person of a GxP enterprise — and then it must be refused without a reason (400 "Informe o motivo da alteração.",
 * nothing stored) and stored with one (the reason in its trail entries), or succeed without one while writing audited
 * records — or declared outside GxP records, with why. The routes are the app's own list: a route added later fails
 * this file until it is classified, so a change that needs a reason can never be left without a way to give one (and
 * the web form that calls it must then ask for it: ReasonField).
 */
let ctx: TestContext;
const tokens: Record<'aurora' | 'joao' | 'admin', string> = { aurora: '', joao: '', admin: '' };
const ids: Record<string, string> = {};
let joaoPassword = DEMO_PASSWORD;

interface WalkRequest {
  method: 'POST' | 'PUT' | 'DELETE';
  url: string;
  body?: Record<string, unknown>;
}

interface WalkCase {
  /** What the request changes. */
  what: string;
  who: keyof typeof tokens;
  /** Builds the request (called once: a refused request changed nothing, so the same one is sent again with a reason). */
  request: () => Promise<WalkRequest>;
  /** True: GxP mode refuses it without a reason. False: it writes audited records and needs none. */
  needsReason: boolean;
  /** The chain its entries must reach: the GxP enterprise's (default) or the platform's (records of no enterprise). */
  chain?: 'aurora' | 'platform';
}

const future = () => new Date(ctx.clock.now().getTime() + 30 * 86_400_000).toISOString();

/** An open alarm of a device of Aurora's (opening alarms is the ingestion's; tested elsewhere). */
async function openAlarm(mac: string): Promise<string> {
  const row = await ctx.db
    .insertInto('alarms')
    .values({ device_id: await deviceId(ctx, mac), travel_id: null, type: 'temperature_high', message: 'Temperatura acima do limite máximo', started_at: ctx.clock.now(), ended_at: null, temperature_min: 9, temperature_max: 9, humidity_min: null, humidity_max: null, acknowledged_at: null, acknowledged_by: null, acknowledge_message: null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function newLocation(name: string): Promise<{ location: string; group: string }> {
  const location = await ctx.request('POST', '/api/locations', tokens.aurora, { name, latitude: -23.5, longitude: -46.6 });
  expect(location.statusCode, location.body).toBe(201);
  const group = await ctx.request('POST', '/api/devices-groups', tokens.aurora, { location_id: location.json()._id, name: `${name} - prateleira` });
  expect(group.statusCode, group.body).toBe(201);
  return { location: location.json()._id, group: group.json()._id };
}

/**
 * The walk, in order (each case may rely on what the ones before it stored). Keys are the app's route keys; a route
 * may have several cases (a change that needs a reason and one that does not).
 */
const CASES: Record<string, WalkCase[]> = {
  'PUT /api/devices/:id': [
    { what: 'limits and alarm delays', who: 'aurora', needsReason: true, request: async () => ({ method: 'PUT', url: `/api/devices/${ids.chamber}`, body: { config: { temperature: { min: -24, max: -17 }, out_of_range_minutes: 5 } } }) },
    { what: 'the location and group a device is placed in', who: 'aurora', needsReason: true, request: async () => {
      const place = await newLocation('Depósito Norte');
      ids.northLocation = place.location;
      return { method: 'PUT', url: `/api/devices/${ids.freezer}`, body: { location_id: place.location, group_id: place.group } };
    } },
  ],
  'POST /api/devices/update-name/:mac': [
    { what: 'a device\'s name', who: 'aurora', needsReason: true, request: async () => ({ method: 'POST', url: `/api/devices/update-name/${encodeURIComponent(MACS.chamber)}`, body: { name: 'Câmara Fria Matriz (A)' } }) },
  ],
  'POST /api/devices/link/user': [
    { what: 'the devices linked to a user', who: 'aurora', needsReason: true, request: async () => ({ method: 'POST', url: '/api/devices/link/user', body: { devices: [ids.freezer], to_update: 1, user_id: ids.joao } }) },
  ],
  'POST /api/beacon-device': [
    { what: 'a device registered into the stock (no enterprise yet)', who: 'admin', needsReason: false, chain: 'platform', request: async () => ({ method: 'POST', url: '/api/beacon-device', body: { mac: 'C3:00:00:00:0A:01', name: 'Sensor Estoque 01', model: 'SNT-H2' } }) },
  ],
  'POST /api/devices/link/client': [
    { what: 'a device moved into a GxP enterprise', who: 'admin', needsReason: true, request: async () => ({ method: 'POST', url: '/api/devices/link/client', body: { devices: [await deviceId(ctx, 'C3:00:00:00:0A:01')], to_update: 1, client_id: ids.aurora } }) },
  ],
  'POST /api/client/link/:enterpriseId': [
    { what: 'a user of no enterprise moved into a GxP enterprise', who: 'admin', needsReason: true, request: async () => {
      const row = await ctx.db
        .insertInto('users')
        .values({ name: 'Sem Empresa', username: 'sem.empresa', email: 'sem.empresa@example.com', phone: null, password_hash: 'x', profile_id: 3, enterprise_id: null, telegram_chat_id: null, verified: true })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { method: 'POST', url: `/api/client/link/${ids.aurora}`, body: { users: [{ id: row.id, isOwner: false }] } };
    } },
  ],
  'POST /api/user/update/:id': [
    { what: 'a user\'s name and username', who: 'aurora', needsReason: true, request: async () => ({ method: 'POST', url: `/api/user/update/${ids.joao}`, body: { name: 'João Silva Santos', username: 'joao.silva', email: 'joao.silva@aurora.example' } }) },
  ],
  'POST /api/profile': [
    { what: 'one\'s own name', who: 'joao', needsReason: true, request: async () => ({ method: 'POST', url: '/api/profile', body: { name: 'João S. Santos', username: 'joao.silva', email: 'joao.silva@aurora.example', phone: '(11) 98765-4321' } }) },
    { what: 'one\'s own phone only (not a GxP field)', who: 'joao', needsReason: false, request: async () => ({ method: 'POST', url: '/api/profile', body: { name: 'João S. Santos', username: 'joao.silva', email: 'joao.silva@aurora.example', phone: '(11) 91234-5678' } }) },
  ],
  'POST /api/profile/': [
    { what: 'one\'s own username (the documents\' spelling with a slash)', who: 'joao', needsReason: true, request: async () => ({ method: 'POST', url: '/api/profile/', body: { name: 'João S. Santos', username: 'joao.santos', email: 'joao.silva@aurora.example', phone: '(11) 91234-5678', current_password: joaoPassword } }) },
  ],
  'POST /api/travels': [
    { what: 'a travel created with its devices (the creation is the change)', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/travels', body: { origin: PLACES.campinas, destiny: PLACES.santos, responsible_user_id: ids.joao, devices: [{ device_id: ids.truck2 }] } }) },
  ],
  'PUT /api/travels/:id': [
    { what: 'the devices of a travel', who: 'aurora', needsReason: true, request: async () => ({ method: 'PUT', url: `/api/travels/${ids.notStarted}`, body: { devices: [{ device_id: ids.truck2, name: 'Baú 02 (reserva)' }, { device_id: ids.freezer }] } }) },
    { what: 'only the places of a travel', who: 'aurora', needsReason: false, request: async () => ({ method: 'PUT', url: `/api/travels/${ids.notStarted}`, body: { destiny: PLACES.santos } }) },
  ],
  'PUT /api/travels/edit-travel-device': [
    { what: 'a travel device\'s name and limits', who: 'aurora', needsReason: true, request: async () => ({ method: 'PUT', url: '/api/travels/edit-travel-device', body: { travel_id: ids.notStarted, device_id: ids.truck2, name: 'Baú 02 na viagem', config: { temperature: { min: 1, max: 7 } } } }) },
  ],
  'POST /api/travels/:id/status': [
    { what: 'a travel started', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: `/api/travels/${ids.notStarted}/status`, body: { status: 1 } }) },
  ],
  'PUT /api/travels/:id/tracking-link': [
    { what: 'a tracking link\'s scope and expiry', who: 'aurora', needsReason: false, request: async () => ({ method: 'PUT', url: `/api/travels/${ids.notStarted}/tracking-link`, body: { scope: 'position', expires_at: future() } }) },
  ],
  'POST /api/travels/:id/tracking-link/revoke': [
    { what: 'a tracking code revoked', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: `/api/travels/${ids.notStarted}/tracking-link/revoke` }) },
  ],
  'POST /api/travels/:id/tracking-link/regenerate': [
    { what: 'a new tracking code', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: `/api/travels/${ids.notStarted}/tracking-link/regenerate` }) },
  ],
  'POST /api/locations': [
    { what: 'a location created', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/locations', body: { name: 'Loja Sul', latitude: -23.6, longitude: -46.7 } }) },
  ],
  'PUT /api/locations/:id': [
    { what: 'a location renamed', who: 'aurora', needsReason: false, request: async () => ({ method: 'PUT', url: `/api/locations/${ids.northLocation}`, body: { name: 'Depósito Norte (galpão 2)', latitude: -23.5, longitude: -46.6 } }) },
  ],
  'POST /api/devices-groups': [
    { what: 'a group created', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/devices-groups', body: { location_id: ids.northLocation, name: 'Câmara 3' } }) },
  ],
  'PUT /api/devices-groups/:id': [
    { what: 'a group renamed', who: 'aurora', needsReason: false, request: async () => {
      const group = await ctx.db.selectFrom('device_groups').select('id').where('location_id', '=', ids.northLocation!).where('name', '=', 'Câmara 3').executeTakeFirstOrThrow();
      return { method: 'PUT', url: `/api/devices-groups/${group.id}`, body: { name: 'Câmara 3 (nova)' } };
    } },
  ],
  'DELETE /api/devices-groups/:id': [
    { what: 'a group holding a device removed (the device leaves it)', who: 'aurora', needsReason: true, request: async () => {
      const device = await ctx.db.selectFrom('devices').select('group_id').where('id', '=', ids.freezer!).executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/devices-groups/${device.group_id}` };
    } },
    { what: 'an empty group removed', who: 'aurora', needsReason: false, request: async () => {
      const group = await ctx.db.selectFrom('device_groups').select('id').where('location_id', '=', ids.northLocation!).where('name', '=', 'Câmara 3 (nova)').executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/devices-groups/${group.id}` };
    } },
  ],
  'DELETE /api/locations/:id': [
    { what: 'a location holding a device removed (the device leaves it)', who: 'aurora', needsReason: true, request: async () => ({ method: 'DELETE', url: `/api/locations/${ids.northLocation}` }) },
    { what: 'an empty location removed', who: 'aurora', needsReason: false, request: async () => {
      const location = await ctx.db.selectFrom('locations').select('id').where('name', '=', 'Loja Sul').executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/locations/${location.id}` };
    } },
  ],
  'POST /api/user/create': [
    { what: 'a user created with devices (the creation is the change)', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/user/create', body: { name: 'Ana Lima', username: 'ana.lima', email: 'ana.lima@aurora.example', phone: '(11) 99999-0000', profile: { _id: 5 }, available_devices: [ids.chamber] } }) },
  ],
  'POST /api/client-active-inactive': [
    { what: 'a user disabled', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/client-active-inactive', body: { user_id: await userId(ctx, 'ana.lima'), status: true } }) },
  ],
  'POST /api/admin/users/:id/reset-password': [
    { what: 'a user\'s password reset by the administrator', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: `/api/admin/users/${await userId(ctx, 'ana.lima')}/reset-password`, body: { password: 'Nova@Senha2026' } }) },
  ],
  'POST /api/gateways': [
    { what: 'a gateway created', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/gateways', body: { name: 'Gateway Doca 1' } }) },
  ],
  'PUT /api/gateways/:id': [
    { what: 'a gateway renamed', who: 'aurora', needsReason: false, request: async () => ({ method: 'PUT', url: `/api/gateways/${await gatewayId('Gateway Doca 1')}`, body: { name: 'Gateway Doca 1A' } }) },
  ],
  'DELETE /api/gateways/:id': [
    { what: 'a gateway revoked', who: 'aurora', needsReason: false, request: async () => ({ method: 'DELETE', url: `/api/gateways/${await gatewayId('Gateway Doca 1A')}` }) },
  ],
  'POST /api/monitor-links': [
    { what: 'a monitor link created', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/monitor-links', body: { name: 'TV da expedição', device_ids: [ids.chamber], travel_ids: [], expires_at: future() } }) },
  ],
  'DELETE /api/monitor-links/:id': [
    { what: 'a monitor link revoked', who: 'aurora', needsReason: false, request: async () => {
      const link = await ctx.db.selectFrom('monitor_links').select('id').where('name', '=', 'TV da expedição').executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/monitor-links/${link.id}` };
    } },
  ],
  'POST /api/api-tokens': [
    { what: 'an API token created', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/api-tokens', body: { name: 'ERP da expedição', scopes: ['readings:read'] } }) },
  ],
  'DELETE /api/api-tokens/:id': [
    { what: 'an API token revoked', who: 'aurora', needsReason: false, request: async () => {
      const token = await ctx.db.selectFrom('api_tokens').select('id').where('name', '=', 'ERP da expedição').executeTakeFirstOrThrow();
      return { method: 'DELETE', url: `/api/api-tokens/${token.id}` };
    } },
  ],
  'POST /api/webhooks': [
    { what: 'a webhook created', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/webhooks', body: { url: 'https://hooks.example.com/sentinela', events: ['alarm.opened'], description: 'ERP' } }) },
  ],
  'PUT /api/webhooks/:id': [
    { what: 'a webhook\'s events changed', who: 'aurora', needsReason: false, request: async () => ({ method: 'PUT', url: `/api/webhooks/${await webhookId()}`, body: { events: ['alarm.opened', 'alarm.ended'] } }) },
  ],
  'DELETE /api/webhooks/:id': [
    { what: 'a webhook deleted', who: 'aurora', needsReason: false, request: async () => ({ method: 'DELETE', url: `/api/webhooks/${await webhookId()}` }) },
  ],
  'PUT /api/enterprise/alarm-escalation': [
    { what: 'reminders and escalation of the enterprise', who: 'aurora', needsReason: false, request: async () => ({ method: 'PUT', url: '/api/enterprise/alarm-escalation', body: { reminder_minutes: 60, escalation_minutes: 120 } }) },
  ],
  'POST /api/enterprise/address': [
    { what: 'the enterprise\'s address', who: 'aurora', needsReason: false, request: async () => ({ method: 'POST', url: '/api/enterprise/address', body: { cep: '01310-100', number: '1000', address: 'Av. Paulista', neighbourhood: 'Bela Vista', city: 'São Paulo', uf: 'SP' } }) },
  ],
  'POST /api/me/config/notification-channel': [
    { what: 'a notification channel turned on', who: 'joao', needsReason: false, request: async () => ({ method: 'POST', url: '/api/me/config/notification-channel', body: { channel: 'email' } }) },
  ],
  'DELETE /api/me/config/notification-channel': [
    { what: 'a notification channel turned off', who: 'joao', needsReason: false, request: async () => ({ method: 'DELETE', url: '/api/me/config/notification-channel', body: { channel: 'email' } }) },
  ],
  'POST /api/alarms/:id/acknowledge': [
    // In GxP mode an acknowledgement is a signature (password and meaning, ADR 0062), not a reason for change.
    { what: 'an alarm acknowledged with a signature', who: 'joao', needsReason: false, request: async () => ({ method: 'POST', url: `/api/alarms/${await openAlarm(MACS.truck1)}/acknowledge`, body: { message: 'Porta fechada.', password: DEMO_PASSWORD, meaning: 'Revisado' } }) },
  ],
  'POST /api/me/change-password': [
    { what: 'one\'s own password', who: 'joao', needsReason: false, request: async () => ({ method: 'POST', url: '/api/me/change-password', body: { current_password: DEMO_PASSWORD, password: 'Outra@Senha2026' } }) },
  ],
};

/** Routes that write no GxP record of an enterprise, or whose rule is tested where it lives. Each says why. */
const OUTSIDE: Record<string, string> = {
  'POST /api/authenticate': 'a sign-in is an event of the trail, not a change of a record',
  'POST /api/logout': 'ends a session (sessions are not records)',
  'POST /api/session/presence': 'presence on a live screen',
  'POST /api/client': 'sign-up: a new enterprise, never in GxP mode at creation',
  'POST /api/client/create': 'the super admin registers a new enterprise (not in GxP mode at creation)',
  'POST /api/client/create/': 'the same, the documents\' other spelling',
  'POST /api/user/email-available': 'a question, writes nothing',
  'POST /api/verify-email/resend': 'sends an e-mail',
  'DELETE /api/profile/pending-email': 'cancels one\'s new e-mail waiting for its link (ADR 82): the record is unchanged; an event of the trail',
  'DELETE /api/user/pending-email/:id': 'cancels a user\'s new e-mail waiting for its link (ADR 82): the record is unchanged; an event of the trail',
  'POST /api/password/request/reset': 'an anonymous recovery: a code by e-mail',
  'POST /api/password/reset': 'an anonymous recovery: the password only (not a reason-bound field)',
  'POST /api/account/protect': 'the owner\'s "Não fui eu" e-mail link (ADR 58): anonymous, puts the e-mail and username back and locks the account; audited, never asked a reason',
  'POST /api/contact-us': 'a message to the platform',
  'POST /api/beacon-device/import': 'registers devices into the stock, like POST /api/beacon-device (no enterprise yet)',
  'POST /api/firmwares': 'platform firmware files',
  'POST /api/ingest/readings': 'the ingestion is the system, never asked a reason (compliance.test.ts)',
  'POST /api/ingest/ruuvi': 'the ingestion is the system, never asked a reason',
  'POST /api/reports/generate-reports-by-excel': 'requests reports (their generation is the system\'s job)',
  'POST /api/report/validate': 'checks a file, writes nothing',
  'POST /api/reports/:id/approve': 'a signature (password and meaning), tested in signatures.test.ts',
  'PUT /api/enterprise/compliance': 'GxP mode itself: turning it off has its own reason rule (compliance.test.ts)',
  'PUT /api/enterprise/retention': 'retention (ADR 0081): in GxP mode every change needs its reason, checked by the service (retention.test.ts)',
  'POST /api/me/telegram/:chatId/link': 'links a Telegram chat to one\'s account (needs the bot: notifications.test.ts); not a GxP field',
  'DELETE /api/me/telegram': 'unlinks one\'s Telegram chat; not a GxP field',
  'POST /api/me/push-subscriptions': 'a browser\'s push subscription',
  'DELETE /api/me/push-subscriptions': 'a browser\'s push subscription',
  'POST /api/webhooks/:id/test': 'sends a test event to a webhook (its delivery log is not a GxP record)',
  'POST /api/webhooks/:id/deliveries/:deliveryId/redeliver': 'sends a delivery again (its delivery log is not a GxP record)',
  'POST /api/devices/:id/calibrations': 'a new calibration certificate (multipart upload): its creation is the change, audited; calibrations.test.ts',
  'POST /api/mapping-studies': 'starts a thermal mapping study: a new record and its report request, audited, never changed (the report is the system\'s job); mapping-studies.test.ts',
  'POST /api/enterprise/plan': 'billing',
  'PUT /api/subscription': 'billing',
  'DELETE /api/subscription/pending-change': 'billing',
  'POST /api/invoices/:id/mark-paid': 'billing (its own reason: manual settlement, billing.test.ts)',
  'POST /api/pix/webhook': 'billing: the PIX provider\'s notice',
  'POST /api/pix/webhook/pix': 'billing: the PIX provider\'s notice',
  'POST /api/cards': 'billing',
  'POST /api/cards/:id/main': 'billing',
  'DELETE /api/cards/:id': 'billing',
  'POST /api/admin/plans': 'the platform\'s plans',
  'PUT /api/admin/plans/:id': 'the platform\'s plans',
  'POST /api/admin/plans/:id/retire': 'the platform\'s plans',
  'POST /api/admin/plans/:id/restore': 'the platform\'s plans',
  'DELETE /api/admin/plans/:id': 'the platform\'s plans',
  'POST /api/admin/faq': 'the platform\'s FAQ',
  'PUT /api/admin/faq/:id': 'the platform\'s FAQ',
  'PUT /api/admin/faq/order': 'the platform\'s FAQ',
  'DELETE /api/admin/faq/:id': 'the platform\'s FAQ',
};

/** Routes whose body takes a `reason` with a rule of its own (not the GxP reason for change of ADR 0061). */
const OWN_REASON_RULES = new Set(['PUT /api/enterprise/compliance', 'PUT /api/enterprise/retention', 'POST /api/invoices/:id/mark-paid']);

async function webhookId(): Promise<string> {
  return (await ctx.db.selectFrom('webhooks').select('id').where('description', '=', 'ERP').executeTakeFirstOrThrow()).id;
}

async function gatewayId(name: string): Promise<string> {
  return (await ctx.db.selectFrom('gateways').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

/** Whether a route's body schema declares `reason` (through optional and pipe wrappers). */
function takesReason(route: WalkedRoute): boolean {
  let schema = (route.options.schema as { body?: unknown } | undefined)?.body as { shape?: Record<string, unknown>; def?: { innerType?: unknown; in?: unknown } } | undefined;
  for (let depth = 0; schema && depth < 5; depth++) {
    if (schema.shape) return 'reason' in schema.shape;
    schema = (schema.def?.innerType ?? schema.def?.in) as typeof schema;
  }
  return false;
}

async function chainHeads(): Promise<Record<string, number>> {
  const rows = await ctx.db.selectFrom('audit_chain_heads').select(['chain', 'seq']).execute();
  return Object.fromEntries(rows.map((r) => [r.chain, Number(r.seq)]));
}

/** The entries written since `heads`, per chain. */
async function entriesSince(heads: Record<string, number>): Promise<Array<{ chain: string; entity: string; action: string; reason: string | null }>> {
  const { rows } = await sql<{ chain: string; entity: string; action: string; reason: string | null }>`
    SELECT a.chain, a.entity, a.action, a.reason FROM audit_trail a
    WHERE a.seq > coalesce((${JSON.stringify(heads)}::jsonb ->> a.chain)::bigint, 0)`.execute(ctx.db);
  return rows;
}

beforeAll(async () => {
  ctx = await createTestContext({ demo: true });
  tokens.aurora = (await ctx.login('aurora.adm')).token;
  tokens.joao = (await ctx.login('joao.silva')).token;
  tokens.admin = (await ctx.login('admin')).token;
  ids.aurora = (await ctx.db.selectFrom('enterprises').select('id').where('name', '=', 'Aurora Alimentos').executeTakeFirstOrThrow()).id;
  ids.chamber = await deviceId(ctx, MACS.chamber);
  ids.freezer = await deviceId(ctx, MACS.freezer);
  ids.truck2 = await deviceId(ctx, MACS.truck2);
  ids.joao = await userId(ctx, 'joao.silva');
  ids.notStarted = await travelId(ctx, CODES.auroraNotStarted);
  const gxp = await ctx.request('PUT', '/api/enterprise/compliance', tokens.aurora, { gxp: true });
  expect(gxp.json()).toMatchObject({ gxp: true });
});
afterAll(() => ctx.close());

describe('X11 GxP route walk: every write route is classified', () => {
  it('X11 each route that writes is walked in GxP mode or declared outside GxP records, once', () => {
    const writes = walkableRoutes(ctx.routes).filter((r) => r.url.startsWith('/api') && r.method !== 'GET');
    const keys = writes.map((r) => r.key);
    expect(keys.filter((k) => !(k in CASES) && !(k in OUTSIDE)), 'routes neither walked nor declared outside').toEqual([]);
    expect(Object.keys(CASES).filter((k) => k in OUTSIDE), 'routes both walked and declared outside').toEqual([]);
    expect([...Object.keys(CASES), ...Object.keys(OUTSIDE)].filter((k) => !keys.includes(k)), 'classified routes the app does not have').toEqual([]);
  });

  it('X11 a route refused without a reason takes one in its body, and a route that takes one is walked needing it', () => {
    const writes = walkableRoutes(ctx.routes).filter((r) => r.url.startsWith('/api') && r.method !== 'GET');
    const reasonRoutes = new Set(Object.entries(CASES).filter(([, cases]) => cases.some((c) => c.needsReason)).map(([key]) => key));
    const taking = writes.filter((r) => takesReason(r) && !OWN_REASON_RULES.has(r.key)).map((r) => r.key).sort();
    expect(taking).toEqual([...reasonRoutes].sort());
  });
});

describe('X11 GxP route walk: in GxP mode, by a person', () => {
  const flat = Object.entries(CASES).flatMap(([key, cases]) => cases.map((c, i) => ({ key, index: i, ...c })));
  it.each(flat)('X11 $key — $what', async ({ key, index, who, request, needsReason, chain = 'aurora' }) => {
    // Sessions may have ended (a username or password change, a profile edited by the administrator): sign in again.
    if (who === 'joao') {
      const { username } = await ctx.db.selectFrom('users').select('username').where('id', '=', ids.joao!).executeTakeFirstOrThrow();
      tokens.joao = (await ctx.login(username, joaoPassword)).token;
    }
    const { method, url, body } = await request();
    const chainId = chain === 'aurora' ? ids.aurora! : 'platform';
    const before = await chainHeads();
    const plain = await ctx.request(method, url, tokens[who], body);
    if (needsReason) {
      expect(plain.statusCode, `${key} without a reason: ${plain.body}`).toBe(400);
      expect(plain.json().error).toBe(AUDIT_TRAIL_MESSAGES.reasonRequired);
      // The whole request failed: nothing stored, so no entry anywhere.
      expect(await chainHeads()).toEqual(before);
      const reason = `Motivo do teste ${index + 1} de ${key}.`;
      const withReason = await ctx.request(method, url, tokens[who], { ...body, reason });
      expect(withReason.statusCode, `${key} with a reason: ${withReason.body}`).toBeLessThan(300);
      const entries = await entriesSince(before);
      expect(entries.filter((e) => e.chain === chainId && e.reason === reason).length, JSON.stringify(entries)).toBeGreaterThan(0);
      expect(entries.every((e) => e.reason === reason), 'every entry of the request carries its reason').toBe(true);
    } else {
      expect(plain.statusCode, `${key} in GxP mode without a reason: ${plain.body}`).toBeLessThan(300);
      const entries = await entriesSince(before);
      expect(entries.some((e) => e.chain === chainId), `${key} writes audited records of the ${chain} chain: ${JSON.stringify(entries)}`).toBe(true);
    }
    if (key === 'POST /api/me/change-password') joaoPassword = 'Outra@Senha2026';
  });
});
