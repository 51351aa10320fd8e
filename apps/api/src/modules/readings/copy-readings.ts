import { copyIn } from '../../db/copy-in';
import type { Db } from '../../db/database';
import type { ReadingColumns } from './repository';

/**
 * Readings in PostgreSQL's binary COPY format (ADR 42): what the server stores as is, so neither side formats or
 * parses text. Each value is written with its column's own type: int4 device number, timestamptz as int8
 * microseconds since 2000-01-01 UTC, real as float4, double precision as float8, uuid as 16 bytes, int4 counters.
 */
export const READINGS_COPY = 'COPY readings (device_num, ts, temperature, humidity, battery, lat, lng, travel_id, seq, seq_modulo) FROM STDIN (FORMAT binary)';

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const FIELDS = 10;
/** 2 (field count) + 10 length words + the widest values: int4, int8, 3 × float4, 2 × float8, uuid, 2 × int4. */
const MAX_ROW_BYTES = 2 + FIELDS * 4 + 4 + 8 + 3 * 4 + 2 * 8 + 16 + 2 * 4;
/** 2000-01-01T00:00:00Z, PostgreSQL's epoch, in Unix milliseconds. */
const PG_EPOCH_MS = 946_684_800_000;
const TWO_32 = 0x1_0000_0000;

/** Encodes the columns (values already validated: finite, in range; times in whole milliseconds). */
export function encodeReadingsBinary(c: ReadingColumns): Buffer {
  const n = c.deviceNum.length;
  const out = Buffer.allocUnsafe(SIGNATURE.length + 8 + n * MAX_ROW_BYTES + 2);
  let o = SIGNATURE.copy(out, 0);
  o = out.writeInt32BE(0, o); // flags: no OIDs
  o = out.writeInt32BE(0, o); // no header extension
  const uuids = new Map<string, Buffer>();
  for (let i = 0; i < n; i++) {
    o = out.writeInt16BE(FIELDS, o);
    o = out.writeInt32BE(4, o);
    o = out.writeInt32BE(c.deviceNum[i]!, o);
    // Microseconds may pass 2^32 (and are negative before 2000): written as two 32-bit halves, no BigInt.
    const micros = (c.tsMs[i]! - PG_EPOCH_MS) * 1000;
    const high = Math.floor(micros / TWO_32);
    o = out.writeInt32BE(8, o);
    o = out.writeInt32BE(high, o);
    o = out.writeUInt32BE(micros - high * TWO_32, o);
    o = float4(out, o, c.temperature[i]!);
    o = float4(out, o, c.humidity[i]!);
    o = float4(out, o, c.battery[i]!);
    o = float8(out, o, c.lat[i]!);
    o = float8(out, o, c.lng[i]!);
    const travel = c.travelId[i];
    if (travel === null || travel === undefined) o = out.writeInt32BE(-1, o);
    else {
      let bytes = uuids.get(travel);
      if (!bytes) uuids.set(travel, (bytes = Buffer.from(travel.replace(/-/g, ''), 'hex')));
      if (bytes.length !== 16) throw new Error(`not a uuid: ${travel}`);
      o = out.writeInt32BE(16, o);
      o += bytes.copy(out, o);
    }
    o = int4(out, o, c.seq[i]!);
    o = int4(out, o, c.seqModulo[i]!);
  }
  o = out.writeInt16BE(-1, o);
  return out.subarray(0, o);
}

function float4(out: Buffer, o: number, v: number | null): number {
  if (v === null || v === undefined) return out.writeInt32BE(-1, o);
  o = out.writeInt32BE(4, o);
  return out.writeFloatBE(v, o);
}

function float8(out: Buffer, o: number, v: number | null): number {
  if (v === null || v === undefined) return out.writeInt32BE(-1, o);
  o = out.writeInt32BE(8, o);
  return out.writeDoubleBE(v, o);
}

function int4(out: Buffer, o: number, v: number | null): number {
  if (v === null || v === undefined) return out.writeInt32BE(-1, o);
  o = out.writeInt32BE(4, o);
  return out.writeInt32BE(v, o);
}

/**
 * Copies readings into the partitioned table in one COPY (PostgreSQL routes each row to its month and writes them in
 * multi-row batches, what makes COPY the ceiling). A (device, time) already stored fails the COPY with a unique
 * violation (23505), like a plain insert: the caller's transaction is then run again with the conflict-skipping
 * insert. Returns how many rows were copied. The partitions must exist (ensureReadingPartitions).
 */
export async function copyReadingColumns(db: Db, c: ReadingColumns): Promise<number> {
  if (c.deviceNum.length === 0) return 0;
  return copyIn(db, READINGS_COPY, encodeReadingsBinary(c));
}
