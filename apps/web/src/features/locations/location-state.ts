import type { PlacedDevice } from '@sentinela/contract';
import { COLOUR_STATE_URGENCY, shownState, type ColourMemory, type ColourState, type ShownState } from '../../components/device-state/colour-state';
import { silenceOf, type Silence } from '../../components/device-state/freshness';

/** Each device's colour state, by the rule of the travel cards, remembered across live updates (one memory per screen). */
export function deviceStates(memory: ColourMemory, devices: readonly PlacedDevice[]): Map<string, ColourState> {
  const states = new Map<string, ColourState>();
  for (const device of devices) states.set(device._id, memory.resolveReading(device._id, device.temperature, device.config.temperature));
  return states;
}

/** What the map and the devices dialog show of a device: its state, or its silence once it went quiet (ADR 0035). */
export interface DeviceShown {
  state: ShownState;
  silence: Silence | null;
}

export const NOTHING_SHOWN: DeviceShown = { state: 'none', silence: null };

export function shownDevices(states: ReadonlyMap<string, ColourState>, devices: readonly PlacedDevice[], now: number): Map<string, DeviceShown> {
  const shown = new Map<string, DeviceShown>();
  for (const device of devices) {
    const silence = silenceOf(device.lastSyncDate, device.expectedIntervalSeconds, now);
    shown.set(device._id, { state: shownState(states.get(device._id) ?? 'none', silence?.ms ?? null), silence });
  }
  return shown;
}

/** What a location shows at a glance: the most urgent state of its devices ('none' without devices). */
export function locationState(states: readonly ShownState[]): ShownState {
  let shown: ShownState = 'none';
  for (const state of states) if (COLOUR_STATE_URGENCY[state] > COLOUR_STATE_URGENCY[shown]) shown = state;
  return shown;
}
