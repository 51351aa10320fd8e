import { SimpleGrid } from '@mantine/core';
import type { MonitorDevice } from '@sentinela/contract';
import { useMemo } from 'react';
import { ColourMemory } from '../../../components/device-state/colour-state';
import { silenceOf, useNow } from '../../../components/device-state/freshness';
import { MonitorCard } from './MonitorCard';

/**
 * The wall's grid of cards (1 column on a phone, up to 4 on a 1920 px wall). Colours follow the travel cards' rule
 * with one memory per screen (a reading exactly on a limit keeps the earlier state); a device gone quiet turns
 * neutral with "Sem dados há …" (ADR 0035), re-checked by itself since a silence sends no event.
 */
export function MonitorCards({ devices }: { devices: readonly MonitorDevice[] }) {
  const colours = useMemo(() => new ColourMemory(), []);
  const now = useNow();
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3, xl: 4 }} spacing="md">
      {devices.map((device) => (
        <MonitorCard
          key={device._id}
          device={device}
          state={colours.resolveReading(device._id, device.temperature.value, device.config.temperature)}
          // A finished travel's card shows its last reading within the travel: silence means nothing there.
          silence={device.travel?.finished ? null : silenceOf(device.last_update_date, device.expectedIntervalSeconds, now)}
        />
      ))}
    </SimpleGrid>
  );
}
