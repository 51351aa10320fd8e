import type { DeviceReportInput, MappingReportInput, ReportReading, TravelReportInput } from '../../../reports/types';

/**
 * What a render thread is asked to make. Readings travel as columns of numbers (NaN for "no value") in transferable
 * buffers: half a million reading objects would take the main thread a noticeable pause to copy, the buffers none.
 */
export interface PackedReadings {
  count: number;
  ts: Float64Array;
  temperature: Float64Array;
  humidity: Float64Array;
  battery: Float64Array;
  lat: Float64Array;
  lng: Float64Array;
}

type WithPacked<T extends { readings: ReportReading[] }> = Omit<T, 'readings'> & { readings: PackedReadings };
export type PackedDeviceInput = WithPacked<DeviceReportInput>;
export type PackedTravelInput = Omit<TravelReportInput, 'devices'> & { devices: Array<WithPacked<TravelReportInput['devices'][number]>> };
export type PackedMappingInput = Omit<MappingReportInput, 'sensors'> & { sensors: Array<WithPacked<MappingReportInput['sensors'][number]>> };

export type RenderTask =
  | { kind: 'device-pdf'; input: PackedDeviceInput; outputPath: string }
  | { kind: 'device-xlsx'; input: PackedDeviceInput; outputPath: string }
  | { kind: 'travel-pdf'; input: PackedTravelInput; outputPath: string }
  | { kind: 'mapping-pdf'; input: PackedMappingInput; outputPath: string };

/** The written file: its size and the SHA-256 of its bytes, as the validator will compare them. */
export interface RenderResult {
  size: number;
  sha256: string;
  /** A PDF's signature timestamp (ADR 79): none asked (no TSA, or a spreadsheet), carried, or missing (why, for the log). */
  timestamp: RenderedTimestamp;
}

export type RenderedTimestamp = { status: 'off' } | { status: 'signature'; time: string; authority: string } | { status: 'missing'; reason: string };

/** Where the signing identity comes from: a configured P12, or the platform's own under `dir`. */
export interface SigningSource {
  dir: string;
  p12Path?: string | undefined;
  p12Password?: string | undefined;
}

const COLUMNS = ['ts', 'temperature', 'humidity', 'battery', 'lat', 'lng'] as const;

/** Collects readings chunk by chunk into growing columns. */
export class ReadingColumns {
  private size = 0;
  private columns: Record<(typeof COLUMNS)[number], Float64Array>;

  constructor(capacity = 1024) {
    this.columns = Object.fromEntries(COLUMNS.map((c) => [c, new Float64Array(Math.max(1, capacity))])) as ReadingColumns['columns'];
  }

  get count(): number {
    return this.size;
  }

  /** One reading; `t` is its instant in epoch milliseconds. */
  push(row: { t: number; temperature: number | null; humidity: number | null; battery: number | null; lat: number | null; lng: number | null }): void {
    if (this.size === this.columns.ts.length) this.grow();
    const i = this.size++;
    const c = this.columns;
    c.ts[i] = row.t;
    c.temperature[i] = row.temperature ?? NaN;
    c.humidity[i] = row.humidity ?? NaN;
    c.battery[i] = row.battery ?? NaN;
    c.lat[i] = row.lat ?? NaN;
    c.lng[i] = row.lng ?? NaN;
  }

  pack(): PackedReadings {
    const slice = (a: Float64Array) => a.slice(0, this.size);
    const c = this.columns;
    return { count: this.size, ts: slice(c.ts), temperature: slice(c.temperature), humidity: slice(c.humidity), battery: slice(c.battery), lat: slice(c.lat), lng: slice(c.lng) };
  }

  private grow(): void {
    for (const name of COLUMNS) {
      const bigger = new Float64Array(this.columns[name].length * 2);
      bigger.set(this.columns[name]);
      this.columns[name] = bigger;
    }
  }
}

const orNull = (n: number) => (Number.isNaN(n) ? null : n);

export function unpackReadings(packed: PackedReadings): ReportReading[] {
  const readings: ReportReading[] = new Array<ReportReading>(packed.count);
  for (let i = 0; i < packed.count; i++) {
    readings[i] = {
      ts: new Date(packed.ts[i]!),
      temperature: orNull(packed.temperature[i]!),
      humidity: orNull(packed.humidity[i]!),
      battery: orNull(packed.battery[i]!),
      lat: orNull(packed.lat[i]!),
      lng: orNull(packed.lng[i]!),
    };
  }
  return readings;
}

/** The buffers a task can hand over to the thread instead of copying. */
export function transferList(task: RenderTask): ArrayBuffer[] {
  const packs =
    task.kind === 'travel-pdf' ? task.input.devices.map((d) => d.readings) : task.kind === 'mapping-pdf' ? task.input.sensors.map((s) => s.readings) : [task.input.readings];
  return packs.flatMap((p) => COLUMNS.map((c) => p[c].buffer as ArrayBuffer));
}
