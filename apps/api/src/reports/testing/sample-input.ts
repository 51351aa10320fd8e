import { computeCoverage } from '../../modules/readings/coverage';
/**
 * Synthetic report inputs for the renderer tests and the benchmark: a cold-chain device sampled every minute,
 * mostly within 2–8 °C with a few excursions, humidity around 60 %, a battery running down and a moving position.
 * Deterministic (no Math.random), so a failing test can be reproduced.
 */
import type { DeviceReportInput, ReportAlarm, ReportReading, TravelReportInput } from '../types';

export const SAMPLE_TIME_ZONE = 'America/Sao_Paulo';

export interface SampleOptions {
  readings: number;
  /** First reading (UTC). */
  start?: Date;
  intervalMs?: number;
  /** Phase of the synthetic waves, so that devices of one travel differ. */
  seed?: number;
}

export function sampleReadings({ readings, start = new Date('2026-03-02T03:00:00Z'), intervalMs = 60_000, seed = 0 }: SampleOptions): ReportReading[] {
  const out: ReportReading[] = new Array(readings);
  for (let i = 0; i < readings; i++) {
    const wave = Math.sin((i + seed * 97) / 180) * 2.2 + Math.sin((i + seed * 31) / 23) * 0.4;
    // A door left open every ~2,500 readings: a short climb above 8 °C.
    const door = (i + seed * 400) % 2500 < 40 ? 4.5 * Math.sin((((i + seed * 400) % 2500) / 40) * Math.PI) : 0;
    out[i] = {
      ts: new Date(start.getTime() + i * intervalMs),
      temperature: Math.round((5 + wave + door) * 100) / 100,
      humidity: i % 997 === 13 ? null : Math.round((60 + Math.cos((i + seed * 13) / 240) * 12) * 100) / 100,
      battery: Math.max(5, 100 - Math.floor(i / 200)),
      lat: -23.55052 - i * 0.00001,
      lng: -46.633308 + i * 0.000012,
    };
  }
  return out;
}

export function sampleAlarms(readings: readonly ReportReading[]): ReportAlarm[] {
  const first = readings[0]?.ts.getTime() ?? Date.UTC(2026, 2, 2, 3);
  return [
    {
      occurredAt: new Date(first + 30 * 60_000),
      type: 'temperature_high',
      message: 'Temperatura acima do limite máximo (8,00 °C)',
      temperature: { min: 8.3, max: 9.4 },
      humidity: { min: null, max: null },
      active: false,
      acknowledgedAt: new Date(first + 42 * 60_000),
      acknowledgedBy: 'João Conceição',
      acknowledgementMessage: 'Porta da câmara fria aberta durante o carregamento; fechada e verificada.',
    },
    {
      occurredAt: new Date(first + 5 * 3_600_000),
      type: 'no_data',
      message: 'Sem dados há mais de 30 minutos',
      temperature: { min: null, max: null },
      humidity: { min: null, max: null },
      active: true,
      acknowledgedAt: null,
      acknowledgedBy: null,
      acknowledgementMessage: null,
    },
  ];
}

export function sampleDeviceReport(options: SampleOptions & { travel?: boolean }): DeviceReportInput {
  const readings = sampleReadings(options);
  const from = readings[0]?.ts ?? options.start ?? new Date('2026-03-02T03:00:00Z');
  const to = new Date((readings.at(-1)?.ts ?? from).getTime() + 60_000);
  return {
    reportId: '6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f',
    enterprise: { name: 'Farmácia São João Ltda.' },
    device: { name: 'Câmara fria nº 2', mac: 'AC:23:3F:A1:B2:C3', serial: 'SN-000142' },
    calibration: { state: 'valid', certificateNumber: 'RBC-0421/2026', laboratory: 'Laboratório Metrológico Paulista', dueAt: '2027-02-28' },
    travel: options.travel
      ? { code: 'K7M2Q9XRTA', status: 'Em andamento', origin: 'Centro de distribuição, Guarulhos - SP', destination: 'Hospital Santa Luíza, Campinas - SP', responsible: 'Maria Eugênia', startedAt: from, finishedAt: null }
      : null,
    period: { from, to },
    valueFilters: { temperature: { min: null, max: null }, humidity: { min: null, max: null } },
    limits: { temperature: { min: 2, max: 8 }, humidity: { min: 30, max: 75 } },
    readings,
    alarms: sampleAlarms(readings),
    coverage: computeCoverage(
      { times: readings.map((r) => r.ts.getTime()), seq: readings.map(() => null), seqModulo: readings.map(() => null) },
      { from: from.getTime(), to: to.getTime(), intervalSeconds: null, intervalSource: null },
    ),
    issuer: { name: 'Ana Luíza Gonçalves', username: 'ana.goncalves' },
    generatedAt: new Date('2026-03-10T13:45:30Z'),
    timeZone: SAMPLE_TIME_ZONE,
  };
}

export function sampleTravelReport(options: { devices: number; readingsPerDevice: number }): TravelReportInput {
  const devices = Array.from({ length: options.devices }, (_, index) => {
    const device = sampleDeviceReport({ readings: options.readingsPerDevice, seed: index + 1 });
    return {
      device: { name: `Caixa térmica ${index + 1}`, mac: `AC:23:3F:00:00:${String(index + 1).padStart(2, '0')}`, serial: null },
      calibration: index === 0 ? device.calibration : ({ state: 'none' } as const),
      period: device.period,
      valueFilters: device.valueFilters,
      limits: device.limits,
      readings: device.readings,
      alarms: index === 0 ? device.alarms : [],
      coverage: device.coverage,
    };
  });
  const first = devices[0]?.period.from ?? new Date('2026-03-02T03:00:00Z');
  const last = devices[0]?.period.to ?? first;
  return {
    reportId: '0b8e7c6d-5a4f-4e3d-9c2b-1a0f9e8d7c6b',
    enterprise: { name: 'Farmácia São João Ltda.' },
    travel: {
      code: 'K7M2Q9XRTA',
      status: 'Finalizada',
      origin: 'Centro de distribuição, Rodovia Presidente Dutra km 225, Guarulhos - SP',
      destination: 'Hospital Santa Luíza, Av. Brasil 1500, Campinas - SP',
      responsible: 'Maria Eugênia',
      startedAt: first,
      finishedAt: last,
    },
    route: { positions: options.readingsPerDevice, distanceKm: 97.4 },
    devices,
    issuer: { name: 'Ana Luíza Gonçalves', username: 'ana.goncalves' },
    generatedAt: new Date('2026-03-10T13:45:30Z'),
    timeZone: SAMPLE_TIME_ZONE,
  };
}
