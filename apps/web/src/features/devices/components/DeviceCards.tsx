import { Card, Group, Stack, Text } from '@mantine/core';
import type { Device } from '@sentinela/contract';
import type { ReactNode } from 'react';
import { CardReadings, cardFrameStyle } from '../../../components/device-state/CardReadings';
import { ColourMemory, shownState } from '../../../components/device-state/colour-state';
import { silenceOf } from '../../../components/device-state/freshness';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { DeviceActions } from './DeviceActions';
import { CalibrationBadge } from '../../../components/CalibrationBadge';

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

  return (
    <Card
      withBorder
      radius="md"
      padding="sm"
      data-testid="device-row-card"
      data-mac={device.mac}
      data-state={state}
      style={cardFrameStyle(state)}
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
          <CalibrationBadge dueAt={device.calibration_due_at} size="xs" />
        </div>

        <CardReadings state={state} temperature={device.temperature} humidity={device.humidity} battery={device.battery} />

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
          <DeviceActions device={device} onRename={onRename} />
        </Group>
      </Stack>
    </Card>
  );
}
