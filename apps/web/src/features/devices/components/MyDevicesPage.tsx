import { Group, Stack, Title } from '@mantine/core';
import { can } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { useRequiredSession } from '../../../lib/session';
import { devicesKeys, myDevicesQueryOptions } from '../api/list-my-devices';
import { DevicesTable } from './DevicesTable';

// The live updates (socket client included) load once the list has been shown, after the first paint (ADR 0049).
const LiveDevices = lazy(() => import('../live/LiveDevices'));
const ListErrorAlert = lazy(() => import('./ListErrorAlert'));
// Only an empty list needs the way to /complete-register (ADR 84): a list with devices never loads it.
const NoDevicesHint = lazy(() => import('./NoDevicesHint'));

/** /my-devices "Meus Dispositivos" (D1), kept live by the devices feed (ADR 0049). */
export function MyDevicesPage() {
  const { user, enterprise } = useRequiredSession();
  const devices = useQuery(myDevicesQueryOptions(user));
  // Someone of an enterprise with nothing to list is told what comes first; the platform's admin keeps the table.
  const empty = devices.data?.length === 0 && !!enterprise?._id;

  return (
    <Stack>
      <Group justify="space-between" align="center" gap="xs">
        <Title order={2}>Meus Dispositivos</Title>
        {devices.data && (
          <Suspense fallback={null}>
            <LiveDevices queryKey={devicesKeys.mine(user._id)} />
          </Suspense>
        )}
      </Group>
      {devices.isError && (
        <Suspense fallback={null}>
          <ListErrorAlert />
        </Suspense>
      )}
      {empty ? (
        <Suspense fallback={null}>
          <NoDevicesHint />
        </Suspense>
      ) : (
        <DevicesTable
          devices={devices.data ?? []}
          loading={devices.isPending && !devices.isError}
          canRename={can(user.profile._id, 'devices:rename')}
        />
      )}
    </Stack>
  );
}
