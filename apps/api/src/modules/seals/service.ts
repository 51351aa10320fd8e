import { SEAL_CHAIN_START, SEAL_MESSAGES, type DaySeal, type SealAddendum, type SealDevice, type SealKind, type SealTimestamp, type SealVerifyResult } from '@sentinela/contract';
import { sql } from 'kysely';
import { z } from 'zod';
import type { Db } from '../../db/database';
import type { JobLog, JobQueue } from '../../jobs/job-queue';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { addDays, instantOf, localDay } from '../../lib/time-zone';
import { loadOrCreateSigningIdentity, type SigningIdentity } from '../../reports/signing/certificate';
import { signDetached } from '../../reports/signing/sign-pdf';
import { readTimestampToken } from '../../reports/signing/timestamp-token';
import type { Timestamper } from '../../reports/signing/tsa-client';
import type { SigningSource } from '../reports/render/render-task';
import type { RollupHour } from '../readings/rollups';
import { EMPTY_SHA256, sameEntry, sealCanonical, sha256Hex } from './canonical';
import {
  chainBetween,
  chainHead,
  deviceNumsByMac,
  devicesByNum,
  devicesWithReadings,
  insertSeal,
  lockChain,
  enterprisesWithDevices,
  insertSealTimestamp,
  nextReadingAt,
  readDeviceEntry,
  sealedSpans,
  sealsOfDay,
  timestampFrom,
  unstampedHeads,
  type SealRow,
  type SealTimestampRow,
} from './repository';

export const SEAL_JOB = 'day-seals';
/** Marks taken per transaction: a flood of late readings is folded in bounded steps. */
const MARKS_PER_ROUND = 5000;
const HOUR_MS = 3_600_000;

const emptyEntry = (mac: string): SealDevice => ({ mac, count: 0, first: null, last: null, sha256: EMPTY_SHA256 });

/**
 * Sealed days of readings (issue 24 point 3, X12, ADR 0080). A pg-boss job, queued every SEAL_CHECK_MINUTES (and at
 * start, so the days before this feature, or before a server stopped, are sealed without holding the start-up):
 * 1. folds late readings (the seal marks ingestion writes with the roll-up marks) into addenda of their sealed days;
 * 2. seals, per enterprise, every day from its first reading (or after its latest seal) whose end in the
 *    enterprise's zone is behind the roll-up line: past it, every reading that arrives for the day leaves a mark.
 * The retention (ADR 0081) calls `recordRemoval` in the transaction that removes readings.
 */
export class SealService {
  private identity: Promise<SigningIdentity> | undefined;

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly timeZone: string,
    private readonly signing: SigningSource,
    private readonly jobs: JobQueue,
    private readonly log: JobLog,
    private readonly checkMinutes: number,
    /** REPORT_TSA_URL's (ADR 0091): each run ends by stamping the chain heads that have no timestamp. */
    private readonly timestamper?: Timestamper,
  ) {
    jobs.define<{ slot: string }>({
      name: SEAL_JOB,
      schema: z.object({ slot: z.string() }),
      concurrency: 1,
      retryLimit: 3,
      retryDelaySeconds: 300,
      deleteAfterSeconds: 2 * 24 * 3600,
      // The first run on a database with years of readings seals each of those days.
      expireInSeconds: 6 * 3600,
      handler: async () => {
        const sealed = await this.run();
        if (sealed.days + sealed.addenda > 0) this.log.info(sealed, 'readings sealed');
      },
      onFinalFailure: async (_data, error) => this.log.error({ err: error }, 'sealing days of readings failed'),
    });
  }

  /**
   * The enterprise's zone. Enterprises have no zone of their own yet: every day is the day in REPORT_TIME_ZONE, read
   * only through here so that a per-enterprise zone changes nothing else.
   */
  zoneOf(_enterpriseId: string): string {
    return this.timeZone;
  }

  /** [start, end) of a day in a zone. */
  private bounds(day: string, zone: string): { from: Date; to: Date } {
    const at = (d: string) => {
      const [year, month, date] = d.split('-').map(Number) as [number, number, number];
      return instantOf({ year, month, day: date, hour: 0, minute: 0, second: 0 }, zone);
    };
    return { from: at(day), to: at(addDays(day, 1)) };
  }

  /** Queues a run for the current slot of SEAL_CHECK_MINUTES; one per slot, whatever the servers. */
  async queue(): Promise<void> {
    const slotMs = Math.max(1, this.checkMinutes) * 60_000;
    const slot = new Date(Math.floor(this.clock.now().getTime() / slotMs) * slotMs).toISOString();
    if (await this.jobs.hasPending(SEAL_JOB, slot)) return;
    if ((await this.jobs.jobsFor(SEAL_JOB, slot)).some((j) => j.state === 'completed')) return;
    await this.jobs.send(SEAL_JOB, { slot }, slot);
  }

  /** One run of the job (tests call it under their clock, after the roll-up job moved the line). */
  async run(): Promise<{ days: number; addenda: number; stamped: number }> {
    const out = { days: 0, addenda: 0, stamped: 0 };
    const { rows } = await sql<{ trusted_before: Date }>`SELECT trusted_before FROM reading_rollup_state`.execute(this.db);
    const line = rows[0]!.trusted_before;
    for (;;) {
      const { taken, addenda, days } = await this.foldLateReadings(line);
      out.addenda += addenda;
      out.days += days;
      if (taken < MARKS_PER_ROUND) break;
    }
    out.days += await this.sealEndedDays(line);
    out.stamped = await this.stampHeads();
    return out;
  }

  /**
   * Asks the TSA for a token over each enterprise's chain head that has none (ADR 0091): one request per enterprise
   * whose chain grew, outside any transaction (no chain lock waits on the TSA). The token dates the head and, through
   * the hash links, every entry before it. A TSA that fails is logged by the timestamper, and the run asks no more:
   * with a thousand enterprises, a TSA that times out would otherwise hold the job for a thousand deadlines. The next
   * run asks again for every head still without a token.
   */
  private async stampHeads(): Promise<number> {
    if (!this.timestamper) return 0;
    let stamped = 0;
    for (const head of await unstampedHeads(this.db)) {
      let answer;
      try {
        answer = await this.timestamper(Buffer.from(head.canonical, 'utf8'));
      } catch {
        break;
      }
      await insertSealTimestamp(this.db, head.enterprise_id, {
        seq: head.seq,
        sha256: head.sha256,
        token: answer.token,
        stamped_at: answer.info.time,
        authority: answer.info.authority,
      });
      stamped++;
    }
    return stamped;
  }

  /** The latest day of an enterprise that may be sealed: the day before the one the line falls in. */
  private lastSealable(line: Date, zone: string): string {
    return addDays(localDay(line, zone), -1);
  }

  private async sealEndedDays(line: Date): Promise<number> {
    const spans = await sealedSpans(this.db);
    let sealed = 0;
    for (const enterpriseId of await enterprisesWithDevices(this.db)) {
      const zone = this.zoneOf(enterpriseId);
      const last = this.lastSealable(line, zone);
      const span = spans.get(enterpriseId);
      let from = span ? this.bounds(addDays(span.last, 1), zone).from : null;
      for (;;) {
        // Days with readings only: a day without any has nothing to seal (a reading arriving for it later seals it).
        const next = await nextReadingAt(this.db, enterpriseId, from);
        const day = next ? localDay(next, zone) : null;
        if (day === null || day > last) break;
        const made = await this.db.transaction().execute(async (trx) => {
          await lockChain(trx, enterpriseId);
          return this.sealDay(trx, enterpriseId, day);
        });
        if (made) sealed++;
        from = this.bounds(addDays(day, 1), zone).from;
      }
    }
    return sealed;
  }

  /** The day's seal (addendum 0) of the enterprise's devices with readings that day; false when it already exists. */
  private async sealDay(trx: Db, enterpriseId: string, day: string): Promise<boolean> {
    if ((await sealsOfDay(trx, enterpriseId, day)).length > 0) return false;
    const { from, to } = this.bounds(day, this.zoneOf(enterpriseId));
    const devices: SealDevice[] = [];
    for (const device of await devicesWithReadings(trx, enterpriseId, from, to)) devices.push(await readDeviceEntry(trx, device, from, to));
    await this.append(trx, enterpriseId, day, 'day', devices, 0);
    return true;
  }

  /** Appends an entry to the enterprise's chain (its lock held): hashed, signed, stored. */
  private async append(trx: Db, enterpriseId: string, day: string, kind: SealKind, devices: readonly SealDevice[], addendum: number): Promise<void> {
    const head = await chainHead(trx, enterpriseId);
    const sealedAt = this.clock.now();
    const prev = head?.sha256 ?? SEAL_CHAIN_START;
    const sorted = [...devices].sort((a, b) => (a.mac < b.mac ? -1 : a.mac > b.mac ? 1 : 0));
    const canonical = sealCanonical({ date: day, enterprise: enterpriseId, addendum, kind, devices: sorted, prev_seal_sha256: prev, sealed_at: sealedAt.toISOString() });
    const signature = await signDetached(Buffer.from(canonical, 'utf8'), await this.signingIdentity(), sealedAt);
    await insertSeal(trx, {
      enterpriseId,
      seq: (head?.seq ?? 0) + 1,
      day,
      addendum,
      kind,
      devices: sorted,
      prev_seal_sha256: prev,
      sha256: sha256Hex(canonical),
      canonical,
      signature,
      sealed_at: sealedAt,
    });
  }

  /** Each device's latest entry over a day's seal and addenda. */
  private latestEntries(seals: readonly SealRow[]): Map<string, SealDevice> {
    const latest = new Map<string, SealDevice>();
    for (const seal of seals) for (const device of seal.devices) latest.set(device.mac, device);
    return latest;
  }

  /**
   * Recomputes some devices of a sealed day and appends an addendum of those whose readings no longer match their
   * latest entry. Nothing is written when all still match (a reading the seal already counted).
   */
  private async addendum(trx: Db, enterpriseId: string, day: string, macs: readonly string[], kind: SealKind): Promise<boolean> {
    const seals = await sealsOfDay(trx, enterpriseId, day);
    if (seals.length === 0) return false;
    const latest = this.latestEntries(seals);
    const { from, to } = this.bounds(day, this.zoneOf(enterpriseId));
    const nums = await deviceNumsByMac(trx, macs);
    const changed: SealDevice[] = [];
    for (const mac of macs) {
      const num = nums.get(mac);
      const now = num === undefined ? emptyEntry(mac) : await readDeviceEntry(trx, { num, mac }, from, to);
      if (!sameEntry(now, latest.get(mac) ?? emptyEntry(mac))) changed.push(now);
    }
    if (changed.length === 0) return false;
    await this.append(trx, enterpriseId, day, kind, changed, seals[seals.length - 1]!.addendum + 1);
    return true;
  }

  /** The (enterprise, day) → MACs that hours of readings touch (an hour may straddle two days in a half-hour zone). */
  private async daysOf(trx: Db, hours: readonly RollupHour[]): Promise<Map<string, Map<string, Set<string>>>> {
    const devices = await devicesByNum(trx, [...new Set(hours.map((h) => h.deviceNum))]);
    const out = new Map<string, Map<string, Set<string>>>();
    for (const hour of hours) {
      const device = devices.get(hour.deviceNum);
      if (!device?.enterprise_id) continue;
      const zone = this.zoneOf(device.enterprise_id);
      const days = out.get(device.enterprise_id) ?? new Map<string, Set<string>>();
      out.set(device.enterprise_id, days);
      for (const day of new Set([localDay(new Date(hour.hourMs), zone), localDay(new Date(hour.hourMs + HOUR_MS - 1), zone)])) {
        const macs = days.get(day) ?? new Set<string>();
        macs.add(device.mac);
        days.set(day, macs);
      }
    }
    return out;
  }

  /**
   * One round over the marks, in one transaction: the marks are taken first, the readings read in later statements
   * (they see every reading whose mark was taken); a failure puts the marks back. Marks of sealed days become
   * addenda; marks of an unsealed day before the enterprise's latest seal (an old import, a day that had no reading)
   * seal that day; the others belong to days the sealing step has yet to seal, with those readings in them.
   */
  private async foldLateReadings(line: Date): Promise<{ taken: number; addenda: number; days: number }> {
    return this.db.transaction().execute(async (trx) => {
      const { rows } = await sql<{ device_num: number; bucket: Date }>`
        DELETE FROM seal_marks WHERE id IN (SELECT id FROM seal_marks ORDER BY id LIMIT ${MARKS_PER_ROUND})
        RETURNING device_num, bucket`.execute(trx);
      const out = { taken: rows.length, addenda: 0, days: 0 };
      if (rows.length === 0) return out;
      const spans = await sealedSpans(trx);
      const touched = await this.daysOf(trx, rows.map((r) => ({ deviceNum: r.device_num, hourMs: r.bucket.getTime() })));
      for (const enterpriseId of [...touched.keys()].sort()) {
        const span = spans.get(enterpriseId);
        if (!span) continue;
        const last = this.lastSealable(line, this.zoneOf(enterpriseId));
        await lockChain(trx, enterpriseId);
        for (const [day, macs] of [...touched.get(enterpriseId)!].sort(([a], [b]) => (a < b ? -1 : 1))) {
          if (day > last || day > span.last) continue;
          if (await this.sealDay(trx, enterpriseId, day)) out.days++;
          else if (await this.addendum(trx, enterpriseId, day, [...macs].sort(), 'late')) out.addenda++;
        }
      }
      return out;
    });
  }

  /**
   * The retention's share (ADR 0081): called in the transaction that removed readings, after the removal, with the
   * hours it removed. Each sealed day that lost readings gets an addendum of kind 'retention' with what is left of
   * its devices (count 0 when nothing): verification then reads the removal in the chain, not a change.
   */
  async recordRemoval(trx: Db, hours: readonly RollupHour[]): Promise<void> {
    const touched = await this.daysOf(trx, hours);
    for (const enterpriseId of [...touched.keys()].sort()) {
      await lockChain(trx, enterpriseId);
      for (const [day, macs] of [...touched.get(enterpriseId)!].sort(([a], [b]) => (a < b ? -1 : 1))) {
        await this.addendum(trx, enterpriseId, day, [...macs].sort(), 'retention');
      }
    }
  }

  private async enterpriseOf(scope: TenantScope, enterpriseId: string | undefined): Promise<string> {
    if (scope.kind === 'all') {
      if (!enterpriseId) throw badRequest(SEAL_MESSAGES.enterpriseRequired);
      const found = await this.db.selectFrom('enterprises').select('id').where('id', '=', enterpriseId).executeTakeFirst();
      if (!found) throw notFound(SEAL_MESSAGES.enterpriseNotFound);
      return found.id;
    }
    if (!scope.enterpriseId || (enterpriseId !== undefined && enterpriseId !== scope.enterpriseId)) throw notFound(SEAL_MESSAGES.enterpriseNotFound);
    return scope.enterpriseId;
  }

  private async sealedDay(scope: TenantScope, query: { date: string; enterprise_id?: string | undefined }) {
    const enterpriseId = await this.enterpriseOf(scope, query.enterprise_id);
    const seals = await sealsOfDay(this.db, enterpriseId, query.date);
    if (seals.length === 0) throw notFound(SEAL_MESSAGES.notFound);
    return { enterpriseId, seals };
  }

  /** GET /api/seals: the day's seal and its addenda. */
  async get(scope: TenantScope, query: { date: string; enterprise_id?: string | undefined }): Promise<DaySeal> {
    const { enterpriseId, seals } = await this.sealedDay(scope, query);
    const stamps = await Promise.all(seals.map((s) => timestampFrom(this.db, enterpriseId, s.seq)));
    const [seal, ...addenda] = seals.map(
      (s, i): SealAddendum => ({
        seq: s.seq,
        addendum: s.addendum,
        kind: s.kind,
        devices: s.devices,
        prev_seal_sha256: s.prev_seal_sha256,
        sha256: s.sha256,
        signature: Buffer.from(s.signature).toString('base64'),
        sealed_at: s.sealed_at.toISOString(),
        canonical: s.canonical,
        timestamp: stamps[i] ? timestampOf(stamps[i]) : null,
      }),
    );
    return { date: query.date, enterprise: enterpriseId, ...seal!, addenda };
  }

  /**
   * GET /api/seals/verify: each device of the day — those the seal or an addendum names, and any of the enterprise's
   * with readings that day now — recomputed from the stored readings against its latest entry.
   */
  async verify(scope: TenantScope, query: { date: string; enterprise_id?: string | undefined }): Promise<SealVerifyResult> {
    const { enterpriseId, seals } = await this.sealedDay(scope, query);
    const latest = this.latestEntries(seals);
    const { from, to } = this.bounds(query.date, this.zoneOf(enterpriseId));
    const macs = new Set(latest.keys());
    for (const device of await devicesWithReadings(this.db, enterpriseId, from, to)) macs.add(device.mac);
    const nums = await deviceNumsByMac(this.db, [...macs]);
    const differing: string[] = [];
    for (const mac of [...macs].sort()) {
      const num = nums.get(mac);
      const now = num === undefined ? emptyEntry(mac) : await readDeviceEntry(this.db, { num, mac }, from, to);
      if (!sameEntry(now, latest.get(mac) ?? emptyEntry(mac))) differing.push(mac);
    }
    const timestamps = await Promise.all(seals.map((seal) => this.checkTimestamp(enterpriseId, seal)));
    return { date: query.date, enterprise: enterpriseId, ok: differing.length === 0, differing, timestamps };
  }

  /**
   * Whether the token that dates an entry holds: its CMS signature, its imprint equal to the stamped entry's hash, and
   * every link of the chain from the entry to that one (each entry's hash of its canonical text, each `prev` the hash
   * before it). Both tables refuse changes; this finds one made with their triggers switched off.
   */
  private async checkTimestamp(enterpriseId: string, seal: SealRow): Promise<SealVerifyResult['timestamps'][number]> {
    const stamp = await timestampFrom(this.db, enterpriseId, seal.seq);
    if (!stamp) return { addendum: seal.addendum, status: 'none', time: null, authority: null };
    const links = await chainBetween(this.db, enterpriseId, seal.seq, stamp.seq);
    const chained =
      links.length === stamp.seq - seal.seq + 1 &&
      links.every((link, i) => link.sha256 === sha256Hex(link.canonical) && (i === 0 || link.prev_seal_sha256 === links[i - 1]!.sha256)) &&
      links[0]!.sha256 === seal.sha256 &&
      links.at(-1)!.sha256 === stamp.sha256;
    let info;
    try {
      info = readTimestampToken(Buffer.from(stamp.token));
    } catch {
      return { addendum: seal.addendum, status: 'invalid', time: null, authority: null };
    }
    const tokenHolds = info.signatureValid && info.imprintAlgorithm === 'sha256' && info.imprint.equals(Buffer.from(stamp.sha256, 'hex'));
    return { addendum: seal.addendum, status: chained && tokenHolds ? 'stamped' : 'invalid', time: info.time.toISOString(), authority: info.authority };
  }

  private signingIdentity(): Promise<SigningIdentity> {
    // Once per process, as the audit trail's exports (the reports' start-up creates the certificate when missing).
    this.identity ??= loadOrCreateSigningIdentity(this.signing).catch((error: unknown) => {
      this.identity = undefined;
      throw error;
    });
    return this.identity;
  }
}

const timestampOf = (row: SealTimestampRow): SealTimestamp => ({
  seq: row.seq,
  sha256: row.sha256,
  time: row.stamped_at.toISOString(),
  authority: row.authority,
  // PGlite hands bytea out as a Uint8Array, whose toString is its numbers.
  token: Buffer.from(row.token).toString('base64'),
});
