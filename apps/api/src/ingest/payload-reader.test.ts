import { afterAll, describe, expect, it } from 'vitest';
import { AppError } from '../lib/errors';
import { INGEST_MESSAGES } from './messages';
import { PayloadReader, readPayload, type Payload } from './payload-reader';

/** The payload reader gives the same answer on the event loop and in a thread (ADR 53). */
const nowMs = Date.parse('2026-11-28T12:00:00Z');
const threaded = new PayloadReader(1, -1); // every payload, even an empty one, to the thread
afterAll(() => threaded.close());

const bytes = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value));
const mixed = [
  { mac: 'aa:bb:cc:dd:ee:01', ts: '2026-11-28T11:59:00Z', temperature: 4.5, humidity: 60, seq: 7, fw: '1.4.2' },
  { mac: 'AA:BB:CC:DD:EE:02', ts: '2026-11-28T11:59:01.250Z', lat: -23.5, lng: -46.6 },
  { mac: 'nope', ts: '2026-11-28T11:59:00Z' },
  { mac: 'AA:BB:CC:DD:EE:03', ts: '2026-11-28T11:59:00Z', temperature: 1e300 },
  { mac: 'AA:BB:CC:DD:EE:04', ts: '2031-01-01T00:00:00Z' },
  42,
];

describe('PayloadReader', () => {
  it('reads bodies and MQTT messages alike inline and in a thread: valid readings, rejections with their indexes, counts', async () => {
    const payloads: Payload[] = [
      { kind: 'readings', bytes: bytes({ readings: mixed }) },
      { kind: 'readings', bytes: bytes({ readings: mixed, junk: Array.from({ length: 50_000 }, (_, i) => i) }) },
      { kind: 'mqtt', topic: 'devices/AA:BB:CC:DD:EE:09/readings', bytes: bytes({ ts: '2026-11-28T11:58:00Z', temperature: -18 }) },
      { kind: 'mqtt', topic: 'devices/AA:BB:CC:DD:EE:09/readings', bytes: bytes('not json') },
      { kind: 'ruuvi', bytes: bytes({ data: { gw_mac: 'AA:BB:CC:00:00:01', timestamp: String(nowMs / 1000), tags: { 'AA:BB:CC:DD:EE:05': { data: 'zz' } } } }) },
    ];
    for (const payload of payloads) {
      const inline = readPayload(payload, nowMs);
      expect(await threaded.read(payload, nowMs)).toEqual(inline);
    }
    const read = readPayload(payloads[0]!, nowMs);
    expect(read.count).toBe(6);
    expect(read.valid.map((r) => [r.index, r.mac, r.temperature, r.lat, r.seq, r.seqModulo, r.fw])).toEqual([
      [0, 'AA:BB:CC:DD:EE:01', 4.5, null, 7, 65536, '1.4.2'],
      [1, 'AA:BB:CC:DD:EE:02', null, -23.5, null, null, null],
    ]);
    expect(read.rejected.map((r) => [r.index, r.code])).toEqual([[2, 'invalid_mac'], [3, 'out_of_range'], [4, 'future_ts'], [5, 'invalid_reading']]);
  });

  it('refuses a body of the wrong shape whole, in a thread as inline', async () => {
    const tooMany = { kind: 'readings', bytes: bytes({ readings: Array.from({ length: 5001 }, () => ({})) }) } as const;
    await expect(threaded.read(tooMany, nowMs)).rejects.toEqual(new AppError('PAYLOAD_TOO_LARGE', INGEST_MESSAGES.tooMany));
    expect(() => readPayload(tooMany, nowMs)).toThrow(INGEST_MESSAGES.tooMany);
    await expect(threaded.read({ kind: 'readings', bytes: bytes('{"readings": [') }, nowMs)).rejects.toBeInstanceOf(AppError);
    await expect(threaded.read({ kind: 'readings', bytes: bytes('') }, nowMs)).rejects.toEqual(new AppError('VALIDATION', INGEST_MESSAGES.badBody));
  });
});
