import {
  IconBattery1,
  IconBattery2,
  IconBattery3,
  IconBattery4,
  IconBatteryOff,
  IconCircleCheck,
  IconClockPause,
  IconFlame,
  IconSnowflake,
  IconTemperature,
} from '@tabler/icons-react';
import type { ComponentType } from 'react';
import type { BatteryLevel } from './battery';
import { COLOUR_STATE_COLOR, type ShownState } from './colour-state';

/** How a device card looks in each state: travel cards (T2) and the phone cards of Meus Dispositivos (D1). */
export type StateIcon = ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;

export const BATTERY_ICONS: Record<BatteryLevel, { icon: StateIcon; color: string }> = {
  unknown: { icon: IconBatteryOff, color: 'gray' },
  low: { icon: IconBattery1, color: 'red' },
  half: { icon: IconBattery2, color: 'orange' },
  high: { icon: IconBattery3, color: 'teal' },
  full: { icon: IconBattery4, color: 'teal' },
};

/** Each colour state has its own icon and colour (spec 001 §4). */
export const STATE_STYLE: Record<ShownState, { icon: StateIcon; color: string; background: string; border: string }> = {
  none: { icon: IconTemperature, color: COLOUR_STATE_COLOR.none, background: 'var(--mantine-color-body)', border: 'var(--mantine-color-gray-3)' },
  // A silent device is neutral: its last reading's colour would claim a state nobody knows now (ADR 0035).
  silent: { icon: IconClockPause, color: COLOUR_STATE_COLOR.silent, background: 'var(--mantine-color-gray-0)', border: 'var(--mantine-color-gray-5)' },
  hot: { icon: IconFlame, color: COLOUR_STATE_COLOR.hot, background: 'var(--mantine-color-red-0)', border: 'var(--mantine-color-red-5)' },
  cold: { icon: IconSnowflake, color: COLOUR_STATE_COLOR.cold, background: 'var(--mantine-color-blue-0)', border: 'var(--mantine-color-blue-5)' },
  normal: { icon: IconCircleCheck, color: COLOUR_STATE_COLOR.normal, background: 'var(--mantine-color-teal-0)', border: 'var(--mantine-color-teal-5)' },
};
