import type { AlarmNotification, HistorySeries } from '@sentinela/contract';

/** Test data of the device-history screen. */

export function makeSeries(overrides: Partial<HistorySeries> = {}): HistorySeries {
  return {
    bucketSeconds: 300,
    gapSeconds: null,
    count: 3,
    t: [1709300000, 1709300300, 1709300600],
    temperature: { min: [-19.5, null, -18.2], max: [-18.5, null, -17.9], mean: [-19, null, -18] },
    humidity: { min: [50, null, 52], max: [55, null, 54], mean: [52.5, null, 53] },
    stats: { temperature: { min: -19.5, max: -17.9, mean: -18.5 }, humidity: { min: 50, max: 55, mean: 52.75 } },
    limits: { temperature: { min: -22, max: -16 }, humidity: { min: null, max: 80 } },
    from: '2024-03-01T13:00:00.000Z',
    to: '2024-03-01T14:00:00.000Z',
    ...overrides,
  };
}

export function makeAlarm(overrides: Partial<AlarmNotification> = {}): AlarmNotification {
  return {
    _id: '11111111-0000-4000-8000-000000000001',
    date: '2024-03-01T13:00:00.000Z',
    ended_at: null,
    message: 'Temperatura acima do limite (-16,00 °C)',
    type: 'temperature_high',
    type_formatted: 'Temperatura alta',
    temperature_formatted: '-15,20 a -14,10 °C',
    humidity_formatted: '--',
    temperature: { min: -15.2, max: -14.1 },
    humidity: { min: null, max: null },
    active: true,
    active_formatted: 'Sim',
    acknowledge: null,
    acknowledge_formatted: 'Não',
    travel_id: null,
    ...overrides,
  };
}
