import type { LocationDeviceState } from '@sentinela/contract';

/** What a list row must carry to take a device's live state (the Locais map's devices, Meus Dispositivos' rows). */
export interface LiveDeviceRow {
  _id: string;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lastSyncDate: string | null;
}

/**
 * Writes live states into a devices list of the query cache: newer values replace older ones (a value the batch did
 * not carry keeps the one before), older or repeated messages change nothing, and devices not in the list are ignored
 * (the list is fetched again when the page subscribes again or its devices change). The rows keep every other field;
 * an unchanged list is returned as is, so nothing re-renders.
 */
export function mergeLiveStates<T extends LiveDeviceRow>(devices: T[] | undefined, states: readonly LocationDeviceState[]): T[] | undefined {
  if (!devices || states.length === 0) return devices;
  const byId = new Map(states.map((state) => [state._id, state]));
  let changed = false;
  const next = devices.map((device) => {
    const state = byId.get(device._id);
    if (!state) return device;
    if (device.lastSyncDate && Date.parse(state.lastSyncDate) <= Date.parse(device.lastSyncDate)) return device;
    changed = true;
    return {
      ...device,
      temperature: state.temperature ?? device.temperature,
      humidity: state.humidity ?? device.humidity,
      battery: state.battery ?? device.battery,
      lastSyncDate: state.lastSyncDate,
    };
  });
  return changed ? next : devices;
}
