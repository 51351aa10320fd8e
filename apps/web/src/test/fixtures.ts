import { PROFILE_NAMES, type Device, type EnterpriseSummary, type ProfileId, type SessionUser, type Subscription } from '@sentinela/contract';
import type { Session } from '../lib/session';

export function makeUser(profileId: ProfileId, overrides: Partial<SessionUser> = {}): SessionUser {
  return {
    _id: '7d3b6c1e-0000-4000-8000-000000000001',
    id: '7d3b6c1e-0000-4000-8000-000000000001',
    name: 'Maria Souza',
    username: 'maria',
    email: 'maria@example.com',
    phone: null,
    profile: { _id: profileId, name: PROFILE_NAMES[profileId] },
    userType: profileId,
    disabled: false,
    verified: true,
    isOwner: false,
    available_devices: [],
    enterprise: null,
    created_at: '2024-01-01T12:00:00.000Z',
    ...overrides,
  };
}

export function makeSession(profileId: ProfileId, overrides: Partial<SessionUser> = {}): Session {
  return {
    token: 'token-123',
    user: makeUser(profileId, overrides),
    enterprise: { _id: 'ent-1', name: 'Frigorífico Boa Vista' },
  };
}

export function makeDevice(index: number, overrides: Partial<Device> = {}): Device {
  const n = String(index).padStart(2, '0');
  return {
    _id: `00000000-0000-4000-8000-0000000000${n}`,
    name: `Sensor ${n}`,
    model: `SN-${n}`,
    mac: `AA:BB:CC:DD:EE:${n}`,
    key: null,
    lastSyncDate: null,
    created_at: `2024-01-${n}T12:00:00.000Z`,
    config: { temperature: { min: null, max: null }, humidity: { min: null, max: null } },
    enterprise: null,
    battery: null,
    temperature: null,
    humidity: null,
    expectedIntervalSeconds: null,
    ...overrides,
  };
}

export function makeEnterprise(index: number, overrides: Partial<EnterpriseSummary> = {}): EnterpriseSummary {
  const n = String(index).padStart(2, '0');
  return {
    _id: `e0000000-0000-4000-8000-0000000000${n}`,
    name: `Empresa ${n}`,
    email: `contato${n}@empresa.example`,
    disabled: false,
    created_at: `2024-02-${n}T12:00:00.000Z`,
    available_devices: [],
    users: [],
    userOwner: null,
    ...overrides,
  };
}

/** An enterprise on Profissional (Mensal) that owes nothing. */
export function makeSubscription(overrides: Partial<Subscription> = {}): Subscription {
  return {
    enterprise: { _id: 'ent-1', name: 'Frigorífico Boa Vista' },
    current: { plan_id: 'p2', plan_name: 'Profissional', cicle_id: 'c2', cicle_name: 'Mensal', value_cents: 39990 },
    status: 'active',
    started_at: '2026-10-05T12:00:00.000Z',
    restricted_at: null,
    period: { start: '2026-11-05T12:00:00.000Z', end: '2026-12-05T12:00:00.000Z' },
    pending_change: null,
    open_invoice: null,
    overdue_invoice: null,
    ...overrides,
  };
}
