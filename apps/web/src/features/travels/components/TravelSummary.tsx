import { Group, Stack, Text } from '@mantine/core';
import type { Travel } from '@sentinela/contract';
import { IconArrowRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { StatusBadge } from './RoutesTable';

/** Code, status and route of a travel, above its cards or its map. */
export function TravelSummary({ travel, extra }: { travel: Travel; extra?: ReactNode }) {
  return (
    <Stack gap={4} data-testid="travel-summary">
      <Group gap="sm" wrap="wrap">
        <Text fw={700} ff="monospace">
          {travel.code}
        </Text>
        <StatusBadge travel={travel} />
        {extra}
      </Group>
      <Group gap={6} wrap="wrap" c="dimmed">
        <Text size="sm">{travel.origin.address}</Text>
        <IconArrowRight size={14} aria-label="para" />
        <Text size="sm">{travel.destiny.address}</Text>
      </Group>
      {travel.user && (
        <Text size="sm" c="dimmed">
          Responsável: {travel.user.name}
        </Text>
      )}
    </Stack>
  );
}
