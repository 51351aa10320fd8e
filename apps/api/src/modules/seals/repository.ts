import { sql } from 'kysely';
import type { SealDevice, SealKind } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { numberArray } from '../../lib/pg-arrays';
import { deviceEntry, type CanonicalRow } from './canonical';

/** One writer per enterprise chain at a time (the job, the retention, across servers). */
export async function lockChain(trx: Db, enterpriseId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`sentinela.day_seals:${enterpriseId}`}))`.execute(trx);
}

export interface SealRow {
  seq: number;
  day: string;
  addendum: number;
  kind: SealKind;
  devices: SealDevice[];
  prev_seal_sha256: string;
  sha256: string;
  canonical: string;
  signature: Buffer;
  sealed_at: Date;
}

/** The last entry of an enterprise's chain. */
export async function chainHead(db: Db, enterpriseId: string): Promise<{ seq: number; sha256: string } | undefined> {
  return db.selectFrom('day_seals').select(['seq', 'sha256']).where('enterprise_id', '=', enterpriseId).orderBy('seq', 'desc').limit(1).executeTakeFirst();
}

/** The seal and addenda of a day, oldest first. */
export async function sealsOfDay(db: Db, enterpriseId: string, day: string): Promise<SealRow[]> {
  const { rows } = await sql<SealRow>`
    SELECT seq, day::text AS day, addendum, kind, devices, prev_seal_sha256, sha256, canonical, signature, sealed_at
    FROM day_seals WHERE enterprise_id = ${enterpriseId}::uuid AND day = ${day}::date ORDER BY addendum`.execute(db);
  return rows;
}

/** Per enterprise, the first and the latest day sealed (addendum 0). */
export async function sealedSpans(db: Db): Promise<Map<string, { first: string; last: string }>> {
  const { rows } = await sql<{ enterprise_id: string; first: string; last: string }>`
    SELECT enterprise_id, min(day)::text AS first, max(day)::text AS last FROM day_seals WHERE addendum = 0 GROUP BY enterprise_id`.execute(db);
  return new Map(rows.map((r) => [r.enterprise_id, { first: r.first, last: r.last }]));
}

/** Enterprises that have devices (the others have no readings to seal). */
export async function enterprisesWithDevices(db: Db): Promise<string[]> {
  const { rows } = await sql<{ enterprise_id: string }>`
    SELECT DISTINCT enterprise_id FROM devices WHERE enterprise_id IS NOT NULL ORDER BY enterprise_id`.execute(db);
  return rows.map((r) => r.enterprise_id);
}

/**
 * The instant of the enterprise's first reading at or after `from` (any, without it), or null: one index probe per
 * device, so days without readings are skipped, never scanned.
 */
export async function nextReadingAt(db: Db, enterpriseId: string, from: Date | null): Promise<Date | null> {
  const after = from === null ? sql`` : sql`AND r.ts >= ${from.toISOString()}::timestamptz`;
  const { rows } = await sql<{ next: Date | null }>`
    SELECT min(x.ts) AS next FROM devices d
    CROSS JOIN LATERAL (SELECT ts FROM readings r WHERE r.device_num = d.num ${after} ORDER BY ts LIMIT 1) x
    WHERE d.enterprise_id = ${enterpriseId}::uuid`.execute(db);
  return rows[0]?.next ?? null;
}

/** The enterprise's devices with readings in [from, to), by MAC. */
export async function devicesWithReadings(db: Db, enterpriseId: string, from: Date, to: Date): Promise<{ num: number; mac: string }[]> {
  const { rows } = await sql<{ num: number; mac: string }>`
    SELECT d.num, d.mac FROM devices d
    WHERE d.enterprise_id = ${enterpriseId}::uuid
      AND EXISTS (SELECT 1 FROM readings r WHERE r.device_num = d.num AND r.ts >= ${from.toISOString()}::timestamptz AND r.ts < ${to.toISOString()}::timestamptz)
    ORDER BY d.mac`.execute(db);
  return rows;
}

/** Devices by number (the marks' and the retention's key), with their MAC and enterprise. */
export async function devicesByNum(db: Db, nums: readonly number[]): Promise<Map<number, { mac: string; enterprise_id: string | null }>> {
  if (nums.length === 0) return new Map();
  const { rows } = await sql<{ num: number; mac: string; enterprise_id: string | null }>`
    SELECT num, mac, enterprise_id FROM devices WHERE num = ANY(${numberArray(nums)}::int[])`.execute(db);
  return new Map(rows.map((r) => [r.num, { mac: r.mac, enterprise_id: r.enterprise_id }]));
}

export async function deviceNumsByMac(db: Db, macs: readonly string[]): Promise<Map<string, number>> {
  if (macs.length === 0) return new Map();
  const rows = await db.selectFrom('devices').select(['num', 'mac']).where('mac', 'in', macs).execute();
  return new Map(rows.map((r) => [r.mac, r.num]));
}

/**
 * A device's entry over [from, to), from its stored readings along the (device_num, ts) key. Values as the database
 * writes them (`::text`), instants to the microsecond: the hash sees every stored digit.
 */
export async function readDeviceEntry(db: Db, device: { num: number; mac: string }, from: Date, to: Date): Promise<SealDevice> {
  const { rows } = await sql<CanonicalRow & { at: Date }>`
    SELECT ts AS at, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS ts,
      temperature::text AS temperature, humidity::text AS humidity, battery::text AS battery, lat::text AS lat, lng::text AS lng
    FROM readings WHERE device_num = ${device.num} AND ts >= ${from.toISOString()}::timestamptz AND ts < ${to.toISOString()}::timestamptz
    ORDER BY ts`.execute(db);
  return deviceEntry(device.mac, rows);
}

export async function insertSeal(db: Db, row: Omit<SealRow, 'devices'> & { enterpriseId: string; devices: readonly SealDevice[] }): Promise<void> {
  await db
    .insertInto('day_seals')
    .values({
      enterprise_id: row.enterpriseId,
      seq: row.seq,
      day: row.day,
      addendum: row.addendum,
      kind: row.kind,
      devices: JSON.stringify(row.devices),
      prev_seal_sha256: row.prev_seal_sha256,
      sha256: row.sha256,
      canonical: row.canonical,
      signature: row.signature,
      sealed_at: row.sealed_at,
    })
    .execute();
}

/** An entry of a chain as its hash links read it (the chain between a seal and its timestamp). */
export interface ChainLink {
  seq: number;
  prev_seal_sha256: string;
  sha256: string;
  canonical: string;
}

export interface SealTimestampRow {
  seq: number;
  sha256: string;
  token: Buffer;
  stamped_at: Date;
  authority: string;
}

/** Each enterprise's chain head that has no timestamp yet (ADR 0091). */
export async function unstampedHeads(db: Db): Promise<Array<ChainLink & { enterprise_id: string }>> {
  const { rows } = await sql<ChainLink & { enterprise_id: string }>`
    SELECT h.enterprise_id, h.seq, h.prev_seal_sha256, h.sha256, h.canonical
    FROM (SELECT DISTINCT ON (enterprise_id) enterprise_id, seq, prev_seal_sha256, sha256, canonical FROM day_seals ORDER BY enterprise_id, seq DESC) h
    WHERE NOT EXISTS (SELECT 1 FROM seal_timestamps t WHERE t.enterprise_id = h.enterprise_id AND t.seq = h.seq)
    ORDER BY h.enterprise_id`.execute(db);
  return rows;
}

/** Records a head's token; a second server that stamped the same head first keeps its own. */
export async function insertSealTimestamp(db: Db, enterpriseId: string, row: SealTimestampRow): Promise<void> {
  await db
    .insertInto('seal_timestamps')
    .values({ enterprise_id: enterpriseId, seq: row.seq, sha256: row.sha256, token: row.token, stamped_at: row.stamped_at, authority: row.authority })
    .onConflict((oc) => oc.columns(['enterprise_id', 'seq']).doNothing())
    .execute();
}

/** The first timestamp of the chain at or after `seq`: the one that dates that entry. */
export async function timestampFrom(db: Db, enterpriseId: string, seq: number): Promise<SealTimestampRow | undefined> {
  return db
    .selectFrom('seal_timestamps')
    .select(['seq', 'sha256', 'token', 'stamped_at', 'authority'])
    .where('enterprise_id', '=', enterpriseId)
    .where('seq', '>=', seq)
    .orderBy('seq')
    .limit(1)
    .executeTakeFirst();
}

/** The chain's entries from `from` to `to` (both included), in order. */
export async function chainBetween(db: Db, enterpriseId: string, from: number, to: number): Promise<ChainLink[]> {
  return db
    .selectFrom('day_seals')
    .select(['seq', 'prev_seal_sha256', 'sha256', 'canonical'])
    .where('enterprise_id', '=', enterpriseId)
    .where('seq', '>=', from)
    .where('seq', '<=', to)
    .orderBy('seq')
    .execute();
}
