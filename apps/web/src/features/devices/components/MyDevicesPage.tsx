import { Group, Stack, Title } from '@mantine/core';
import { can } from '@sentinela/contract';
import { lazy, Suspense } from 'react';
import { useRequiredSession } from '../../../lib/session';
import { devicesKeys, useMyDevices } from '../api/list-my-devices';
import { DevicesTable } from './DevicesTable';

// The live updates (socket client included) load once the list has been shown, after the first paint (ADR 0049).
const LiveDevices = lazy(() => import('../live/LiveDevices'));
const ListErrorAlert = lazy(() => import('./ListErrorAlert'));

/** /my-devices "Meus Dispositivos" (D1), kept live by the devices feed (ADR 0049). */
export function MyDevicesPage() {
  const { user } = useRequiredSession();
  const devices = useMyDevices(user);

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
      <DevicesTable
        devices={devices.data ?? []}
        loading={devices.isPending && !devices.isError}
        canRename={can(user.profile._id, 'devices:rename')}
      />
    </Stack>
  );
}
