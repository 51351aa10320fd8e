import type { PlacedDevice } from '@sentinela/contract';
import { COLOUR_STATE_URGENCY, type ColourMemory, type ColourState } from '../../components/device-state/colour-state';

/** Each device's colour state, by the rule of the travel cards, remembered across live updates (one memory per screen). */
export function deviceStates(memory: ColourMemory, devices: readonly PlacedDevice[]): Map<string, ColourState> {
  const states = new Map<string, ColourState>();
  for (const device of devices) states.set(device._id, memory.resolveReading(device._id, device.temperature, device.config.temperature));
  return states;
}

/** What a location shows at a glance: the most urgent state of its devices ('none' without devices). */
export function locationState(states: readonly ColourState[]): ColourState {
  let shown: ColourState = 'none';
  for (const state of states) if (COLOUR_STATE_URGENCY[state] > COLOUR_STATE_URGENCY[shown]) shown = state;
  return shown;
}
