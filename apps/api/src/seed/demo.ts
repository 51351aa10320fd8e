import { seedDemoSite } from './demo-site';
import { seedDemoBilling } from './demo-billing';
import { Profile } from '@sentinela/contract';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { asSystem } from '../lib/audit-context';
import { sha256 } from '../lib/tokens';
import { hashPassword } from '../modules/auth/service';
import { insertReadings, type ReadingRow } from '../modules/readings/repository';
import { roadBetween } from '../simulator/brazilian-roads';
import { positionAt } from '../simulator/road-path';

/** Fixed demo logins, listed in the README. */
export const DEMO_PASSWORD = 'Sentinela@2026';
export const DEMO_GATEWAY_KEY = 'demo-gateway-key';

interface DemoDevice {
  mac: string;
  name: string;
  model: string | null;
  tMin: number;
  tMax: number;
  hMin: number;
  hMax: number;
  base: number;
  linkedTo?: string;
}

const ENTERPRISES = [
  {
    name: 'Aurora Alimentos',
    email: 'contato@aurora.example',
    admin: { username: 'aurora.adm', name: 'Aurora Administração', email: 'aurora.adm@aurora.example' },
    user: { username: 'joao.silva', name: 'João Silva', email: 'joao.silva@aurora.example' },
    devices: [
      { mac: 'C3:00:00:00:01:01', name: 'Baú Caminhão 01', model: 'SNT-T1', tMin: 0, tMax: 8, hMin: 30, hMax: 90, base: 4, linkedTo: 'joao.silva' },
      { mac: 'C3:00:00:00:01:02', name: 'Baú Caminhão 02', model: 'SNT-T1', tMin: 0, tMax: 8, hMin: 30, hMax: 90, base: 5, linkedTo: 'joao.silva' },
      { mac: 'C3:00:00:00:01:03', name: 'Câmara Fria Matriz', model: 'SNT-H2', tMin: -22, tMax: -16, hMin: 20, hMax: 80, base: -19 },
      { mac: 'C3:00:00:00:01:04', name: 'Freezer Expedição', model: null, tMin: -25, tMax: -15, hMin: 20, hMax: 80, base: -18 },
    ] as DemoDevice[],
  },
  {
    name: 'Vida Farma',
    email: 'contato@vidafarma.example',
    admin: { username: 'vida.adm', name: 'Vida Farma Administração', email: 'vida.adm@vidafarma.example' },
    user: { username: 'maria.souza', name: 'Maria Souza', email: 'maria.souza@vidafarma.example' },
    devices: [
      { mac: 'C3:00:00:00:02:01', name: 'Geladeira Vacinas', model: 'SNT-V1', tMin: 2, tMax: 8, hMin: 30, hMax: 75, base: 5 },
      { mac: 'C3:00:00:00:02:02', name: 'Caixa Térmica 01', model: 'SNT-T1', tMin: 2, tMax: 8, hMin: 30, hMax: 75, base: 5, linkedTo: 'maria.souza' },
      { mac: 'C3:00:00:00:02:03', name: 'Caixa Térmica 02', model: 'SNT-T1', tMin: 2, tMax: 8, hMin: 30, hMax: 75, base: 6, linkedTo: 'maria.souza' },
      { mac: 'C3:00:00:00:02:04', name: 'Farmácia Centro - Ambiente', model: 'SNT-H2', tMin: 15, tMax: 30, hMin: 30, hMax: 70, base: 23 },
    ] as DemoDevice[],
  },
];

// A few real places, so travels draw sensible maps.
const PLACES = {
  saoPaulo: { address: 'Av. Paulista, 1000 - Bela Vista, São Paulo - SP', lat: -23.5653, lng: -46.6515 },
  rio: { address: 'Av. Brasil, 500 - Caju, Rio de Janeiro - RJ', lat: -22.8864, lng: -43.2216 },
  campinas: { address: 'Rod. Anhanguera, km 100 - Campinas - SP', lat: -22.9056, lng: -47.0608 },
  curitiba: { address: 'Rua XV de Novembro, 300 - Centro, Curitiba - PR', lat: -25.4296, lng: -49.2713 },
  bh: { address: 'Av. Afonso Pena, 1500 - Centro, Belo Horizonte - MG', lat: -19.9245, lng: -43.9352 },
  brasilia: { address: 'Eixo Monumental - Brasília - DF', lat: -15.7939, lng: -47.8828 },
};

/** The demo's readings fall every 5 minutes, on the minute; the last one on the last mark at or before the seed's now. */
export const READING_EVERY_MS = 5 * 60 * 1000;
const DAYS = 7;

export async function isDatabaseEmpty(db: Db): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return !row;
}

/** Seeds demo data: a super admin, two enterprises with an admin and a user each, devices with a week of readings, travels. */
export async function seedDemoData(db: Db, clock: Clock): Promise<void> {
  const now = clock.now();
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  // Its audit-trail entries name the seed (ADR 0060).
  await asSystem('dados de demonstração', () => db.transaction().execute(async (trx) => {
    await trx
      .insertInto('users')
      .values({ name: 'Administrador Sentinela', username: 'admin', email: 'admin@sentinela.example', phone: null, password_hash: passwordHash, profile_id: Profile.SuperAdmin, enterprise_id: null, telegram_chat_id: null, verified: true })
      .execute();

    const gateway = await trx
      .insertInto('gateways')
      .values({ enterprise_id: null, name: 'Gateway de demonstração', key_hash: sha256(DEMO_GATEWAY_KEY), key_prefix: DEMO_GATEWAY_KEY.slice(0, 4), created_by: null })
      .returning('id')
      .executeTakeFirstOrThrow();

    const readings: ReadingRow[] = [];
    for (const [index, e] of ENTERPRISES.entries()) {
      const enterprise = await trx.insertInto('enterprises').values({ name: e.name, email: e.email }).returning('id').executeTakeFirstOrThrow();
      const userIds: Record<string, string> = {};
      for (const [person, profile, isOwner] of [[e.admin, Profile.EnterpriseAdmin, true], [e.user, Profile.User, false]] as const) {
        const user = await trx
          .insertInto('users')
          .values({ ...person, phone: '(11) 99999-000' + index, password_hash: passwordHash, profile_id: profile, enterprise_id: enterprise.id, is_owner: isOwner, verified: true, telegram_chat_id: null })
          .returning('id')
          .executeTakeFirstOrThrow();
        userIds[person.username] = user.id;
      }

      for (const d of e.devices) {
        const device = await trx
          .insertInto('devices')
          .values({
            mac: d.mac, name: d.name, model: d.model, key: null, enterprise_id: enterprise.id, location_id: null, group_id: null,
            temperature_min: d.tMin, temperature_max: d.tMax, humidity_min: d.hMin, humidity_max: d.hMax, no_data_minutes: 60,
            created_at: new Date(now.getTime() - (DAYS + 1) * 86_400_000),
          })
          .returning(['id', 'num'])
          .executeTakeFirstOrThrow();
        await trx.insertInto('gateway_devices').values({ gateway_id: gateway.id, device_id: device.id }).execute();
        if (d.linkedTo) await trx.insertInto('device_users').values({ device_id: device.id, user_id: userIds[d.linkedTo]! }).execute();
        readings.push(...weekOfReadings(device.num, d, now));
        const last = readings[readings.length - 1]!;
        await trx
          .updateTable('devices')
          .set({ last_sync_at: last.ts, last_temperature: last.temperature, last_humidity: last.humidity, last_battery: last.battery })
          .where('id', '=', device.id)
          .execute();
      }
    }
    // The travels first: readings of a travel's span are stored as the travel's, with their positions (readings are
    // never updated afterwards, ADR 0060).
    await seedTravels(trx, now, readings);
    await insertReadings(trx, readings);
    await seedDemoSite(trx);
    await seedDemoBilling(trx, now);
  }));
}

/** A week of readings every 5 minutes: a daily swing around the device's set point and a slow battery drain. */
function weekOfReadings(deviceNum: number, d: DemoDevice, now: Date): ReadingRow[] {
  const rows: ReadingRow[] = [];
  const end = Math.floor(now.getTime() / READING_EVERY_MS) * READING_EVERY_MS;
  const start = end - DAYS * 86_400_000;
  for (let t = start, i = 0; t <= end; t += READING_EVERY_MS, i++) {
    const day = (t / 86_400_000) * 2 * Math.PI;
    // One excursion above the limit on the third day, so reports and alarms have something to show.
    const excursion = i > 864 && i < 876 ? d.tMax - d.base + 1.5 : 0;
    const noise = Math.sin(i * 12.9898 + deviceNum) * 0.3;
    rows.push({
      deviceNum,
      ts: new Date(t),
      temperature: round2(d.base + Math.sin(day) * 1.2 + noise + excursion),
      humidity: round2((d.hMin + d.hMax) / 2 + Math.cos(day) * 8 + noise * 3),
      battery: Math.max(5, round2(100 - (i / (DAYS * 288)) * 12 - deviceNum)),
      lat: null,
      lng: null,
      travelId: null,
    });
  }
  return rows;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

async function seedTravels(db: Db, now: Date, readings: ReadingRow[]): Promise<void> {
  const enterprises = await db.selectFrom('enterprises').select(['id', 'name']).execute();
  const byName = new Map(enterprises.map((e) => [e.name, e.id]));
  const travels = [
    { enterprise: 'Aurora Alimentos', code: 'AUR7K2M9QX', status: 1, from: PLACES.saoPaulo, to: PLACES.rio, macs: ['C3:00:00:00:01:01'], responsible: 'joao.silva', startedHoursAgo: 6 },
    { enterprise: 'Aurora Alimentos', code: 'AUR3H8T4WN', status: 0, from: PLACES.campinas, to: PLACES.curitiba, macs: ['C3:00:00:00:01:02'], responsible: 'joao.silva', startedHoursAgo: null },
    { enterprise: 'Aurora Alimentos', code: 'AUR9P5D2LC', status: 2, from: PLACES.saoPaulo, to: PLACES.bh, macs: ['C3:00:00:00:01:02'], responsible: 'aurora.adm', startedHoursAgo: 96 },
    { enterprise: 'Vida Farma', code: 'VDF4R7N6YB', status: 3, from: PLACES.brasilia, to: PLACES.bh, macs: ['C3:00:00:00:02:02'], responsible: 'maria.souza', startedHoursAgo: 30 },
    { enterprise: 'Vida Farma', code: 'VDF8M2X5KS', status: 1, from: PLACES.bh, to: PLACES.rio, macs: ['C3:00:00:00:02:03'], responsible: 'maria.souza', startedHoursAgo: 4 },
  ];
  for (const t of travels) {
    const responsible = await db.selectFrom('users').select('id').where('username', '=', t.responsible).executeTakeFirstOrThrow();
    const started = t.startedHoursAgo === null ? null : new Date(now.getTime() - t.startedHoursAgo * 3_600_000);
    const finished = t.status === 2 && started ? new Date(started.getTime() + 9 * 3_600_000) : null;
    const travel = await db
      .insertInto('travels')
      .values({
        enterprise_id: byName.get(t.enterprise)!, code: t.code, status: t.status, responsible_user_id: responsible.id, created_by: responsible.id,
        origin_address: t.from.address, origin_lat: t.from.lat, origin_lng: t.from.lng,
        destiny_address: t.to.address, destiny_lat: t.to.lat, destiny_lng: t.to.lng,
        started_at: started, finished_at: finished,
        created_at: new Date((started ?? now).getTime() - 3_600_000),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const mac of t.macs) {
      const device = await db.selectFrom('devices').select(['id', 'num']).where('mac', '=', mac).executeTakeFirstOrThrow();
      await db.insertInto('travel_devices').values({ travel_id: travel.id, device_id: device.id, name: null, temperature_min: null, temperature_max: null, humidity_min: null, humidity_max: null }).execute();
      if (!started) continue;
      // Readings of the travel's span belong to it and carry positions along its road (the one the live demo,
      // ADR 38, keeps driving it on).
      const end = finished ?? (t.status === 3 ? new Date(started.getTime() + 10 * 3_600_000) : now);
      const span = end.getTime() - started.getTime();
      const progress = t.status === 2 ? 1 : 0.55;
      const road = roadBetween([t.from.lat, t.from.lng], [t.to.lat, t.to.lng]);
      for (const r of readings) {
        if (r.deviceNum !== device.num || r.ts < started || r.ts > end) continue;
        const [lat, lng] = positionAt(road, ((r.ts.getTime() - started.getTime()) / span) * progress * road.lengthKm);
        r.travelId = travel.id;
        r.lat = lat;
        r.lng = lng;
      }
      const [lastLat, lastLng] = positionAt(road, progress * road.lengthKm);
      await db.updateTable('travels').set({ last_lat: lastLat, last_lng: lastLng }).where('id', '=', travel.id).execute();
    }
  }
}
