import type { Travel, TravelDevice, TravelReading } from '@sentinela/contract';

export const TRAVEL_ID = '9b0c6a52-0000-4000-8000-000000000001';
export const DEVICE_ID = '00000000-0000-4000-8000-000000000011';

export function makeTravelDevice(overrides: Partial<TravelDevice> = {}): TravelDevice {
  return {
    _id: DEVICE_ID,
    name: 'Baú Caminhão 01',
    mac: 'C3:00:00:00:01:01',
    battery: { value: 85 },
    temperature: { value: 4.5 },
    humidity: { value: 55.123 },
    last_update_date: '2024-03-01T15:30:45.000Z',
    expectedIntervalSeconds: null,
    config: { temperature: { min: 0, max: 8 }, humidity: { min: 30, max: 90 } },
    ...overrides,
  };
}

export function makeTravel(overrides: Partial<Travel> = {}): Travel {
  return {
    _id: TRAVEL_ID,
    code: 'AUR7K2M9QX',
    status: 1,
    status_name: 'Em andamento',
    user: { _id: 'u1', name: 'João Silva' },
    enterprise: { _id: 'ent-1', name: 'Aurora Alimentos' },
    origin: { address: 'Av. Paulista, 1000 - São Paulo - SP', location: [-23.5653, -46.6515] },
    destiny: { address: 'Av. Brasil, 500 - Rio de Janeiro - RJ', location: [-22.8864, -43.2216] },
    devices: [makeTravelDevice()],
    last_position: [-23.2, -45.0],
    created_at: '2024-03-01T08:00:00.000Z',
    started_at: '2024-03-01T09:00:00.000Z',
    finished_at: null,
    tracking: { scope: 'readings', expires_at: null, expires_at_chosen: null, revoked_at: null, lookups: 0, last_lookup_at: null },
    // A travel without its responsible user is a tracking code's view (ADR 36, 72), of that code's scope.
    view: overrides.user === null ? (overrides.tracking?.scope ?? 'readings') : 'full',
    ...overrides,
  };
}

export function makeReading(minutesAgo: number, overrides: Partial<TravelReading> = {}): TravelReading {
  return {
    createdAt: new Date(Date.parse('2024-03-01T15:30:00.000Z') - minutesAgo * 60_000).toISOString(),
    temperature: 4 + minutesAgo / 100,
    humidity: 50,
    battery: 85,
    lat: -23 + minutesAgo / 1000,
    lng: -45,
    travelId: TRAVEL_ID,
    mac: 'C3:00:00:00:01:01',
    ...overrides,
  };
}
