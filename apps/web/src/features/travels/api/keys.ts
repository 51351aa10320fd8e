import type { Travel } from '@sentinela/contract';

/**
 * Query keys of the travel screens. Every cached value that holds one travel (by id or by tracking code) sits under
 * ['travels'], so the live controller can patch each copy of a travel it receives updates for.
 */
export const travelKeys = {
  all: ['travels'] as const,
  list: ['travels', 'list'] as const,
  detail: (id: string) => ['travels', 'detail', id] as const,
  localizator: (code: string) => ['travels', 'localizator', code] as const,
  locations: (id: string) => ['travels', 'locations', id] as const,
  deviceHistory: (id: string, mac: string) => ['travels', 'device-history', id, mac] as const,
  users: (clientId: string) => ['travels', 'form', 'users', clientId] as const,
  devices: (userId: string) => ['travels', 'form', 'devices', userId] as const,
};

/** A cached value is this travel (detail or localizator answer). */
export function isTravel(value: unknown, travelId: string): value is Travel {
  return !!value && typeof value === 'object' && '_id' in value && (value as { _id: unknown })._id === travelId && 'devices' in value;
}
