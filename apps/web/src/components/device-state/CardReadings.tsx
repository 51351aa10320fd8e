import { Group, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconDroplet } from '@tabler/icons-react';
import type { CSSProperties } from 'react';
import { EMPTY, formatHumidity, formatTemperature } from '../../lib/format';
import { batteryLevel } from './battery';
import { BATTERY_ICONS, STATE_STYLE } from './card-style';
import { COLOUR_STATE_LABELS, type ShownState } from './colour-state';

/** A device card's frame in its state: tinted background and a border that thickens once the state means something. */
export function cardFrameStyle(state: ShownState): CSSProperties {
  const style = STATE_STYLE[state];
  return { background: style.background, borderColor: style.border, borderWidth: state === 'none' ? 1 : 2 };
}

interface CardReadingsProps {
  state: ShownState;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  /** The temperature's font size: travel cards have room for a larger one than the phone list's cards. */
  temperatureSize?: number;
}

/**
 * The newest values on a device card, the same on travel cards (T2) and Meus Dispositivos' phone cards (D1):
 * temperature with its colour state's icon, battery level and percentage, then humidity.
 */
export function CardReadings({ state, temperature, humidity, battery, temperatureSize = 24 }: CardReadingsProps) {
  const style = STATE_STYLE[state];
  const StateIcon = style.icon;
  const batteryStyle = BATTERY_ICONS[batteryLevel(battery)];
  const BatteryIcon = batteryStyle.icon;
  return (
    <>
      <Group justify="space-between" wrap="nowrap" align="center">
        <Tooltip label={COLOUR_STATE_LABELS[state]} withinPortal>
          <Group gap={6} wrap="nowrap" data-testid="card-temperature">
            <ThemeIcon variant="light" color={style.color} size="lg" radius="xl" aria-label={COLOUR_STATE_LABELS[state]}>
              <StateIcon size={20} aria-hidden />
            </ThemeIcon>
            <Text fw={700} fz={temperatureSize} lh={1} c={state === 'none' ? undefined : state === 'silent' ? 'dimmed' : `${style.color}.8`}>
              {formatTemperature(temperature)}
            </Text>
          </Group>
        </Tooltip>
        <Group gap={4} wrap="nowrap" data-testid="card-battery" data-level={batteryLevel(battery)}>
          <ThemeIcon variant="transparent" color={batteryStyle.color} size="md" aria-hidden>
            <BatteryIcon size={22} aria-hidden />
          </ThemeIcon>
          <Text size="sm" fw={600} aria-label="Bateria">
            {battery === null ? EMPTY : `${Math.round(battery)}%`}
          </Text>
        </Group>
      </Group>

      <Group gap={6} wrap="nowrap" data-testid="card-humidity">
        <IconDroplet size={18} color="var(--mantine-color-blue-6)" aria-hidden />
        <Text size="sm">
          Umidade: <b>{formatHumidity(humidity)}</b>
        </Text>
      </Group>
    </>
  );
}
