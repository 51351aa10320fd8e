import { Button, Card, Group, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import type { Device } from '@sentinela/contract';
import { IconDroplet } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { batteryLevel } from '../../../components/device-state/battery';
import { BATTERY_ICONS, STATE_STYLE } from '../../../components/device-state/card-style';
import { ColourMemory, COLOUR_STATE_LABELS, shownState } from '../../../components/device-state/colour-state';
import { silenceOf } from '../../../components/device-state/freshness';
import { EMPTY, formatDateTime, formatHumidity, formatTemperature } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import type { DeviceHistoryState } from './DevicesTable';

interface DeviceCardsProps {
  devices: readonly Device[];
  /** The screen's colour memory (made here on first use): a reading equal to a limit keeps the earlier state (spec 001 §4). */
  memory: { current?: ColourMemory };
  now: number;
  onRename: ((device: Device) => void) | null;
  /** "Qtd de registros" of a device (the table's own cell, counted when asked). */
  countCell: (device: Device) => ReactNode;
}

/**
 * Meus Dispositivos on a phone (D1, ADR 0049): one card per device of the page instead of a table that scrolls
 * sideways, with what the table has (name, serial number, MAC, last sync, count, actions) and the newest values the
 * live feed keeps up to date (temperature with its colour state, humidity, battery). Loaded on phones only.
 */
export function DeviceCards({ devices, memory, now, onRename, countCell }: DeviceCardsProps) {
  const colours = (memory.current ??= new ColourMemory());
  return (
    <Stack gap="sm" data-testid="device-cards">
      {devices.map((device) => (
        <DeviceRowCard key={device._id} device={device} colours={colours} now={now} onRename={onRename} countCell={countCell} />
      ))}
    </Stack>
  );
}

function DeviceRowCard({ device, colours, now, onRename, countCell }: { device: Device; colours: ColourMemory } & Omit<DeviceCardsProps, 'devices' | 'memory'>) {
  const silence = silenceOf(device.lastSyncDate, device.expectedIntervalSeconds, now);
  const state = shownState(colours.resolveReading(device._id, device.temperature, device.config.temperature), silence?.ms ?? null);
  const style = STATE_STYLE[state];
  const StateIcon = style.icon;
  const battery = BATTERY_ICONS[batteryLevel(device.battery)];
  const BatteryIcon = battery.icon;

  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      data-testid="device-row-card"
      data-mac={device.mac}
      data-state={state}
      style={{ background: style.background, borderColor: style.border, borderWidth: state === 'none' ? 1 : 2 }}
    >
      <Stack gap={6}>
        <div style={{ minWidth: 0 }}>
          <Text fw={700} truncate="end" title={device.name}>
            {device.name}
          </Text>
          <Text size="xs" c="dimmed" ff="monospace">
            {device.mac}
          </Text>
          <Text size="xs" c="dimmed">
            Número de série: {device.model || EMPTY}
          </Text>
        </div>

        <Group justify="space-between" wrap="nowrap" align="center">
          <Tooltip label={COLOUR_STATE_LABELS[state]} withinPortal>
            <Group gap={6} wrap="nowrap" data-testid="card-temperature">
              <ThemeIcon variant="light" color={style.color} size="lg" radius="xl" aria-label={COLOUR_STATE_LABELS[state]}>
                <StateIcon size={20} aria-hidden />
              </ThemeIcon>
              <Text fw={700} fz={24} lh={1} c={state === 'none' ? undefined : state === 'silent' ? 'dimmed' : `${style.color}.8`}>
                {formatTemperature(device.temperature)}
              </Text>
            </Group>
          </Tooltip>
          <Group gap={4} wrap="nowrap" data-testid="card-battery" data-level={batteryLevel(device.battery)}>
            <ThemeIcon variant="transparent" color={battery.color} size="md" aria-hidden>
              <BatteryIcon size={22} aria-hidden />
            </ThemeIcon>
            <Text size="sm" fw={600} aria-label="Bateria">
              {device.battery === null ? EMPTY : `${Math.round(device.battery)}%`}
            </Text>
          </Group>
        </Group>

        <Group gap={6} wrap="nowrap" data-testid="card-humidity">
          <IconDroplet size={18} color="var(--mantine-color-blue-6)" aria-hidden />
          <Text size="sm">
            Umidade: <b>{formatHumidity(device.humidity)}</b>
          </Text>
        </Group>

        {silence && (
          <Text size="sm" fw={600} c="gray.7" data-testid="device-silence">
            {silence.label}
          </Text>
        )}
        <Text size="xs" c="dimmed" data-testid="card-updated">
          Último sincronismo: {formatDateTime(device.lastSyncDate)}
        </Text>
        <Group gap={4} wrap="nowrap">
          <Text size="xs" c="dimmed">
            Qtd de registros:
          </Text>
          {countCell(device)}
        </Group>

        <Group gap="xs" grow>
          {onRename && (
            <Button size="xs" variant="light" onClick={() => onRename(device)}>
              Alterar Nome
            </Button>
          )}
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={paths.deviceHistory(device.mac, device._id)}
            state={{ name: device.name, model: device.model } satisfies DeviceHistoryState}
          >
            Histórico
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
