import { Group, Loader, Modal, Stack, Text } from '@mantine/core';
import type { Travel } from '@sentinela/contract';
import { lazy, Suspense } from 'react';
import { useIsFetching } from '@tanstack/react-query';
import { travelKeys } from '../api/keys';
import { TRAVEL_MESSAGES } from '../messages';
import { MapFallback } from './MapFallback';

const TravelMap = lazy(() => import('./TravelMap'));

/** "Trajeto" of a travel row: the planned route and the travelled path on a map, in a modal. */
export function RouteModal({ travel, onClose }: { travel: Travel | null; onClose: () => void }) {
  return (
    <Modal
      opened={travel !== null}
      onClose={onClose}
      title={travel ? `Trajeto — ${travel.code}` : ''}
      size="xl"
      centered
    >
      {travel && (
        <Stack gap="xs">
          <Text size="sm">
            <b>Origem:</b> {travel.origin.address}
          </Text>
          <Text size="sm">
            <b>Destino:</b> {travel.destiny.address}
          </Text>
          <LoadingNote travelId={travel._id} />
          <Suspense fallback={<MapFallback />}>
            <TravelMap travel={travel} showPath height={420} reportPathErrors initialView="route" />
          </Suspense>
        </Stack>
      )}
    </Modal>
  );
}

function LoadingNote({ travelId }: { travelId: string }) {
  const loadingPath = useIsFetching({ queryKey: travelKeys.locations(travelId) });
  const loadingRoute = useIsFetching({ queryKey: ['planned-route'] });
  if (!loadingPath && !loadingRoute) return null;
  return (
    <Group gap="xs" role="status">
      <Loader size="xs" />
      <Text size="sm" c="dimmed">
        {TRAVEL_MESSAGES.routeLoading}
      </Text>
    </Group>
  );
}
