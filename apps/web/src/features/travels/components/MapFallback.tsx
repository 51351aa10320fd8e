import { Center, Group, Loader, Text } from '@mantine/core';
import { TRAVEL_MESSAGES } from '../messages';

/** What a map's place shows while its chunk (Leaflet and the tiles' layer) loads. */
export function MapFallback({ height = 420 }: { height?: number }) {
  return (
    <Center h={height}>
      <Group gap="xs">
        <Loader size="sm" />
        <Text c="dimmed">{TRAVEL_MESSAGES.routeLoading}</Text>
      </Group>
    </Center>
  );
}
