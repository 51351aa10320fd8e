import { createHash } from 'node:crypto';
import {
  parseBoundedInstant,
  READINGS_CSV_COLUMNS,
  READINGS_EXPORT_MESSAGES as M,
  type ExportedReading,
  type ReadingsExportPage,
  type ReadingsExportQuery,
} from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import { badRequest, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/tenant-scope';
import { findDeviceByMacInScope, listDeviceNumsInScope } from '../devices/repository';
import { readingsAfter, type ExportPosition, type ExportRow } from './export-repository';
import { DEFAULT_WINDOW_MS } from './history-repository';

/** Rows read per query while a CSV streams: a few hundred kilobytes in memory at a time, whatever the period. */
const CSV_PAGE_ROWS = 5000;

/** What a walk through the export is: its devices and its period, fixed by the first page (ADR 65). */
interface Walk {
  mac: string | null;
  from: Date;
  to: Date;
}

/** The cursor's content; opaque to clients (base64url JSON), bound to its walk by a digest. */
interface CursorState extends ExportPosition {
  walk: { mac: string | null; from: string; to: string };
}

const digestOf = (walk: CursorState['walk']) => createHash('sha256').update(JSON.stringify(walk)).digest('base64url').slice(0, 16);

function encodeCursor(state: CursorState): string {
  return Buffer.from(JSON.stringify({ v: 1, d: state.deviceNum, t: state.ts, w: state.walk, h: digestOf(state.walk) })).toString('base64url');
}

function decodeCursor(text: string): CursorState {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw badRequest(M.badCursor);
  }
  const c = parsed as { v?: unknown; d?: unknown; t?: unknown; w?: { mac?: unknown; from?: unknown; to?: unknown }; h?: unknown };
  const walk = c?.w;
  const ok =
    c?.v === 1 &&
    Number.isSafeInteger(c.d) &&
    typeof c.t === 'string' &&
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/.test(c.t) &&
    walk !== undefined &&
    (walk.mac === null || typeof walk.mac === 'string') &&
    typeof walk.from === 'string' &&
    typeof walk.to === 'string' &&
    parseBoundedInstant(walk.from, { requireOffset: true }) !== null &&
    parseBoundedInstant(walk.to, { requireOffset: true }) !== null;
  if (!ok) throw badRequest(M.badCursor);
  const state: CursorState = { deviceNum: c.d as number, ts: c.t as string, walk: { mac: walk.mac as string | null, from: walk.from as string, to: walk.to as string } };
  // A cursor edited by hand (another period, another device) is refused rather than walked half-way.
  if (c.h !== digestOf(state.walk)) throw badRequest(M.badCursor);
  return state;
}

const csvNumber = (n: number | null) => (n === null ? '' : String(n).replace('.', ','));

/**
 * The readings export (X13, ADR 65): pages in (device, time) order with a cursor that resumes strictly after the last
 * reading answered, or the whole walk as CSV streamed page by page. Devices are those the caller may see (the device
 * history's rules, D3), an API token's being its enterprise's.
 */
export class ReadingsExportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** One page and the cursor of the next (null once the walk is done). */
  async page(scope: TenantScope, query: ReadingsExportQuery): Promise<ReadingsExportPage> {
    const { walk, after } = this.start(query);
    const devices = await this.devices(scope, walk.mac);
    const rows = await readingsAfter(this.db, { deviceNums: [...devices.keys()], from: walk.from, to: walk.to, after, limit: query.limit });
    const last = rows.at(-1);
    return {
      data: rows.map((row) => toExported(row, devices)),
      next_cursor: rows.length === query.limit && last ? encodeCursor({ deviceNum: last.device_num, ts: last.ts_exact, walk: walkText(walk) }) : null,
    };
  }

  /**
   * The whole walk (from the cursor, when given) as CSV text chunks: `;`-separated, UTF-8 with a BOM (spreadsheets
   * in pt-BR read it as such), decimal commas, ISO instants in UTC, CRLF lines. Checks everything before the first
   * chunk (a refused query answers its 4xx, not a broken download); then reads one page per chunk asked for, so a
   * slow client holds the reading back instead of the server holding the period in memory.
   */
  async csv(scope: TenantScope, query: ReadingsExportQuery): Promise<{ filename: string; chunks: AsyncGenerator<string> }> {
    const { walk, after } = this.start(query);
    const devices = await this.devices(scope, walk.mac);
    const db = this.db;
    async function* chunks(): AsyncGenerator<string> {
      yield `\uFEFF${READINGS_CSV_COLUMNS.join(';')}\r\n`;
      let position = after;
      for (;;) {
        const rows = await readingsAfter(db, { deviceNums: [...devices.keys()], from: walk.from, to: walk.to, after: position, limit: CSV_PAGE_ROWS });
        if (rows.length === 0) return;
        let text = '';
        for (const row of rows) {
          const r = toExported(row, devices);
          text += `${r.mac};${r.ts};${csvNumber(r.temperature)};${csvNumber(r.humidity)};${csvNumber(r.battery)};${csvNumber(r.lat)};${csvNumber(r.lng)}\r\n`;
        }
        yield text;
        if (rows.length < CSV_PAGE_ROWS) return;
        const last = rows.at(-1)!;
        position = { deviceNum: last.device_num, ts: last.ts_exact };
      }
    }
    const day = (d: Date) => d.toISOString().slice(0, 10);
    const filename = `leituras-${walk.mac ? walk.mac.replace(/:/g, '') : 'todos'}-${day(walk.from)}-a-${day(walk.to)}.csv`;
    return { filename, chunks: chunks() };
  }

  /** The walk and where to resume: from the cursor (whose walk must match what the query says), else a new walk. */
  private start(query: ReadingsExportQuery): { walk: Walk; after: ExportPosition | null } {
    const given = {
      from: query.from ? new Date(parseBoundedInstant(query.from, { requireOffset: true })!) : null,
      to: query.to ? new Date(parseBoundedInstant(query.to, { requireOffset: true })!) : null,
    };
    if (query.cursor) {
      const state = decodeCursor(query.cursor);
      const walk: Walk = { mac: state.walk.mac, from: new Date(state.walk.from), to: new Date(state.walk.to) };
      const mismatch =
        (query.mac !== undefined && query.mac !== walk.mac) ||
        (given.from !== null && given.from.getTime() !== walk.from.getTime()) ||
        (given.to !== null && given.to.getTime() !== walk.to.getTime());
      if (mismatch) throw badRequest(M.cursorMismatch);
      return { walk, after: { deviceNum: state.deviceNum, ts: state.ts } };
    }
    // Without dates: the last two days, as the device history (D3). The defaults are fixed now, in the cursor.
    const to = given.to ?? this.clock.now();
    const from = given.from ?? new Date(to.getTime() - DEFAULT_WINDOW_MS);
    if (from >= to) throw badRequest(M.fromAfterTo);
    return { walk: { mac: query.mac ?? null, from, to }, after: null };
  }

  /** The devices of the walk the caller may see, by number: one (404 outside the scope, as anywhere) or all. */
  private async devices(scope: TenantScope, mac: string | null): Promise<Map<number, string>> {
    if (mac) {
      const found = await findDeviceByMacInScope(this.db, scope, mac);
      if (!found) throw notFound(M.deviceNotFound);
      return new Map([[found.num, found.device.mac]]);
    }
    return new Map((await listDeviceNumsInScope(this.db, scope)).map((d) => [d.num, d.mac]));
  }
}

function walkText(walk: Walk): CursorState['walk'] {
  return { mac: walk.mac, from: walk.from.toISOString(), to: walk.to.toISOString() };
}

function toExported(row: ExportRow, devices: ReadonlyMap<number, string>): ExportedReading {
  return {
    mac: devices.get(row.device_num) ?? '',
    ts: row.ts.toISOString(),
    temperature: row.temperature,
    humidity: row.humidity,
    battery: row.battery,
    lat: row.lat,
    lng: row.lng,
  };
}
