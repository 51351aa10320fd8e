import type { TravelDevice } from '@sentinela/contract';

/**
 * Temperature colour state of a device (spec 001 §4; travel cards and the Locais map): none without limits, hot above the maximum, cold below
 * the minimum, normal strictly between them. A reading exactly equal to a limit gives no new state: the card keeps
 * its earlier one.
 *
 * With one limit only, that limit alone decides (hot above a maximum, cold below a minimum, normal on the inner side).
 * No reading at all keeps the earlier state too: a card does not turn "normal" because a beacon skipped a value.
 */
export type ColourState = 'none' | 'hot' | 'cold' | 'normal';

/**
 * What a card, row or marker shows: its colour state, or 'silent' once the device has gone quiet (ADR 0035). A silent
 * device is neutral, never the colour of its last reading; the memory keeps the colour state for when readings return.
 */
export type ShownState = ColourState | 'silent';

export function shownState(state: ColourState, silentMs: number | null): ShownState {
  return silentMs === null ? state : 'silent';
}

export interface Limits {
  min: number | null;
  max: number | null;
}

export function nextColourState(previous: ColourState, value: number | null, limits: Limits): ColourState {
  const { min, max } = limits;
  if (min === null && max === null) return 'none';
  if (value === null || Number.isNaN(value)) return previous;
  if (value === min || value === max) return previous;
  if (max !== null && value > max) return 'hot';
  if (min !== null && value < min) return 'cold';
  return 'normal';
}

/**
 * The earlier state of each device card, across live updates and tab switches. One memory per screen: it lives as
 * long as the screen, like the cards' earlier state did in the documents' client. Applying the same reading twice
 * gives the same state, so a repeated render (React's StrictMode) does not change the outcome.
 */
export class ColourMemory {
  private readonly states = new Map<string, ColourState>();

  resolve(travelId: string, device: Pick<TravelDevice, 'mac' | 'temperature' | 'config'>): ColourState {
    return this.resolveReading(`${travelId}|${device.mac}`, device.temperature.value, device.config.temperature);
  }

  /** The same rule for a device known by any key (the Locais map keys devices by id). */
  resolveReading(key: string, value: number | null, limits: Limits): ColourState {
    const next = nextColourState(this.states.get(key) ?? 'none', value, limits);
    this.states.set(key, next);
    return next;
  }
}

/** The Mantine colour of each state: device cards of travels, and markers of the Locais map. */
export const COLOUR_STATE_COLOR: Record<ShownState, 'gray' | 'red' | 'blue' | 'teal'> = {
  none: 'gray',
  silent: 'gray',
  hot: 'red',
  cold: 'blue',
  normal: 'teal',
};

/** Which state a group of devices shows at a glance: the most urgent of theirs (out of range first). */
export const COLOUR_STATE_URGENCY: Record<ShownState, number> = { hot: 3, cold: 3, silent: 2, normal: 1, none: 0 };

export const COLOUR_STATE_LABELS: Record<ShownState, string> = {
  none: 'Sem limites definidos',
  silent: 'Sem dados recentes',
  hot: 'Acima da temperatura máxima',
  cold: 'Abaixo da temperatura mínima',
  normal: 'Temperatura dentro dos limites',
};
