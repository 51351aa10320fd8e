import type { LocationDeviceState, PlacedDevice } from '@sentinela/contract';

/**
 * Writes live states into the devices list: newer values replace older ones (a value the batch did not carry keeps
 * the one before), older or repeated messages change nothing, and devices not in the list are ignored (the list is
 * refetched when the page subscribes again).
 */
export function mergeLiveStates(devices: PlacedDevice[] | undefined, states: LocationDeviceState[]): PlacedDevice[] | undefined {
  if (!devices || states.length === 0) return devices;
  const byId = new Map(states.map((state) => [state._id, state]));
  let changed = false;
  const next = devices.map((device) => {
    const state = byId.get(device._id);
    if (!state) return device;
    if (device.lastSyncDate && Date.parse(state.lastSyncDate) < Date.parse(device.lastSyncDate)) return device;
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
