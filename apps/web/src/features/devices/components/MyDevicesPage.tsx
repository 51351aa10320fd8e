import { Alert, Group, Stack, Title } from '@mantine/core';
import { can } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { LiveStatusBadge } from '../../../components/LiveStatusBadge';
import { useRequiredSession } from '../../../lib/session';
import { devicesKeys, useMyDevices } from '../api/list-my-devices';
import { useLiveDevices } from '../live/use-live-devices';
import { DevicesTable } from './DevicesTable';

/** /my-devices "Meus Dispositivos" (D1), kept live by the devices feed (ADR 0049). */
export function MyDevicesPage() {
  const { user } = useRequiredSession();
  const devices = useMyDevices(user);
  const live = useLiveDevices(devicesKeys.mine(user._id));

  return (
    <Stack>
      <Group justify="space-between" align="center" gap="xs">
        <Title order={2}>Meus Dispositivos</Title>
        <LiveStatusBadge status={live} />
      </Group>
      {devices.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          Não foi possível encontrar dispositivos
        </Alert>
      )}
      <DevicesTable
        devices={devices.data ?? []}
        loading={devices.isPending && !devices.isError}
        canRename={can(user.profile._id, 'devices:rename')}
      />
    </Stack>
  );
}
