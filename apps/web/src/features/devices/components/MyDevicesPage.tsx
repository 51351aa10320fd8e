import { Alert, Stack, Title } from '@mantine/core';
import { can } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useRequiredSession } from '../../../lib/session';
import { useMyDevices } from '../api/list-my-devices';
import { DevicesTable } from './DevicesTable';

/** /my-devices "Meus Dispositivos" (D1). */
export function MyDevicesPage() {
  const { user } = useRequiredSession();
  const devices = useMyDevices(user);

  return (
    <Stack>
      <Title order={2}>Meus Dispositivos</Title>
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
