import { Badge, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { ALARM_TYPE_NAMES, type AlarmType, type MonitorDevice } from '@sentinela/contract';
import { IconBattery, IconBatteryOff, IconCircleCheck, IconClockPause, IconDroplet, IconFlame, IconSnowflake, IconTemperature } from '@tabler/icons-react';
import type { ComponentType } from 'react';
import { COLOUR_STATE_COLOR, COLOUR_STATE_LABELS, shownState, type ColourState, type ShownState } from '../../../components/device-state/colour-state';
import type { Silence } from '../../../components/device-state/freshness';
import { formatCardDateTime, formatHumidity, formatTemperature, formatTimeOfDay } from '../../../lib/format';

type Icon = ComponentType<{ size?: number; stroke?: number; 'aria-hidden'?: boolean }>;

/** The travel cards' colours and icons (spec 001 §4), drawn larger for a wall. */
const STATE_STYLE: Record<ShownState, { icon: Icon; background: string; border: string }> = {
  none: { icon: IconTemperature, background: 'var(--mantine-color-body)', border: 'var(--mantine-color-gray-4)' },
  // A silent device is neutral: its last reading's colour would claim a state nobody knows now (ADR 0035).
  silent: { icon: IconClockPause, background: 'var(--mantine-color-gray-0)', border: 'var(--mantine-color-gray-5)' },
  hot: { icon: IconFlame, background: 'var(--mantine-color-red-0)', border: 'var(--mantine-color-red-6)' },
  cold: { icon: IconSnowflake, background: 'var(--mantine-color-blue-0)', border: 'var(--mantine-color-blue-6)' },
  normal: { icon: IconCircleCheck, background: 'var(--mantine-color-teal-0)', border: 'var(--mantine-color-teal-6)' },
};

const alarmName = (type: string) => ALARM_TYPE_NAMES[type as AlarmType] ?? type;

interface MonitorCardProps {
  device: MonitorDevice;
  state: ColourState;
  /** Set once the device has gone quiet: the card turns neutral and says for how long (ADR 0035). */
  silence?: Silence | null;
}

/** A monitored device, read-only: name, travel, temperature in its colour state, humidity, battery, open alarms. */
export function MonitorCard({ device, state: colourState, silence = null }: MonitorCardProps) {
  const state = shownState(colourState, silence?.ms ?? null);
  const style = STATE_STYLE[state];
  const StateIcon = style.icon;
  const color = COLOUR_STATE_COLOR[state];
  const battery = device.battery.value;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      data-testid="monitor-card"
      data-mac={device.mac}
      data-state={state}
      style={{ background: style.background, borderColor: style.border, borderWidth: state === 'none' ? 1 : 3 }}
    >
      <Stack gap="sm">
        <div style={{ minWidth: 0 }}>
          <Text fw={800} fz="xl" lh={1.2} truncate="end" title={device.name}>
            {device.name}
          </Text>
          <Text size="sm" c="dimmed" truncate="end">
            {device.travel ? `Viagem ${device.travel.code} · ${device.travel.route}` : device.mac}
          </Text>
        </div>
        <Group justify="space-between" wrap="nowrap" align="center">
          <Group gap="sm" wrap="nowrap" data-testid="monitor-temperature" aria-label={COLOUR_STATE_LABELS[state]}>
            <ThemeIcon variant="light" color={color} size={44} radius="xl" aria-hidden>
              <StateIcon size={28} aria-hidden />
            </ThemeIcon>
            <Text fw={800} fz={{ base: 36, sm: 44, xl: 52 }} lh={1} c={state === 'none' ? undefined : state === 'silent' ? 'dimmed' : `${color}.8`} style={{ whiteSpace: 'nowrap' }}>
              {formatTemperature(device.temperature.value)}
            </Text>
          </Group>
          <Stack gap={4} align="flex-end">
            <Group gap={4} wrap="nowrap">
              <IconDroplet size={20} color="var(--mantine-color-blue-6)" aria-hidden />
              <Text fw={700} fz="lg" aria-label="Umidade" style={{ whiteSpace: 'nowrap' }}>
                {formatHumidity(device.humidity.value)}
              </Text>
            </Group>
            <Group gap={4} wrap="nowrap" c={battery !== null && battery <= 20 ? 'red.7' : undefined}>
              {battery === null ? <IconBatteryOff size={20} aria-hidden /> : <IconBattery size={20} aria-hidden />}
              <Text fw={600} size="sm" aria-label="Bateria">
                {battery === null ? '--' : `${Math.round(battery)}%`}
              </Text>
            </Group>
          </Stack>
        </Group>
        {device.alarms.length > 0 && (
          <Group gap="xs" data-testid="monitor-alarms">
            {device.alarms.map((alarm) => (
              <Badge key={alarm._id} color="red" variant={alarm.acknowledged ? 'light' : 'filled'} size="lg" radius="sm">
                {alarmName(alarm.type)} desde {formatTimeOfDay(alarm.started_at)}
                {alarm.acknowledged ? ' · reconhecido' : ''}
              </Badge>
            ))}
          </Group>
        )}
        {silence && (
          <Text fw={700} fz="lg" c="gray.7" data-testid="monitor-silence">
            {silence.label}
          </Text>
        )}
        <Text size="sm" c="dimmed" data-testid="monitor-updated">
          Última leitura: {formatCardDateTime(device.last_update_date)}
        </Text>
      </Stack>
    </Card>
  );
}
