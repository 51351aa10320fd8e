import { SimpleGrid, Text } from '@mantine/core';
import type { TravelDevice } from '@sentinela/contract';
import { useMemo } from 'react';
import type { ColourMemory } from '../../../components/device-state/colour-state';
import { silenceOf, useNow } from '../../../components/device-state/freshness';
import { TRAVEL_MESSAGES } from '../messages';
import { DeviceCard, type DeviceCardActions } from './DeviceCard';

interface DeviceCardsProps extends DeviceCardActions {
  travelId: string;
  devices: readonly TravelDevice[];
  /** The screen's memory of each card's earlier colour state (kept across live updates and tab switches). */
  memory: ColourMemory;
  /** False for a finished travel: its cards show the last reading within it, and silence means nothing there. */
  live?: boolean;
}

/** The device cards of a travel, three per row (one on phones). */
export function DeviceCards({ travelId, devices, memory, live = true, ...actions }: DeviceCardsProps) {
  const states = useMemo(() => devices.map((device) => memory.resolve(travelId, device)), [devices, memory, travelId]);
  const now = useNow();

  if (devices.length === 0) {
    return (
      <Text ta="center" c="dimmed" py="md">
        {TRAVEL_MESSAGES.devicesEmpty}
      </Text>
    );
  }
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md" data-testid="device-cards">
      {devices.map((device, index) => (
        <DeviceCard
          key={device.mac}
          device={device}
          state={states[index] ?? 'none'}
          silence={live ? silenceOf(device.last_update_date, device.expectedIntervalSeconds, now) : null}
          {...actions}
        />
      ))}
    </SimpleGrid>
  );
}
