import { Alert, Group, Stack, Text, Title } from '@mantine/core';
import { can } from '@sentinela/contract';
import { IconBuilding } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';
import { EnterprisePicker, useChosenEnterprise, useEnterprises } from '../../../components/EnterprisePicker';
import { useRequiredSession } from '../../../lib/session';
import { clientDevicesKey, useClientDevices } from '../api/list-client-devices';
import { DevicesTable } from './DevicesTable';

// The live updates (socket client included) load once the list has been shown, after the first paint (ADR 0049).
const LiveDevices = lazy(() => import('../live/LiveDevices'));
const ListErrorAlert = lazy(() => import('./ListErrorAlert'));

/**
 * /client-devices "Dispositivos" (D2): the devices of one enterprise, in the table of Meus Dispositivos.
 * The enterprise is `?id=`, or the user's own; the super admin picks one. The documents also pass
 * `numDevices`; the list itself gives the count, so it is not needed here. The rows are kept live (ADR 0049).
 */
export function ClientDevicesPage() {
  const { user, enterprise } = useRequiredSession();
  const { clientId, canChoose, choose } = useChosenEnterprise();
  const devices = useClientDevices(clientId);
  const enterprises = useEnterprises(canChoose);
  const enterpriseName = canChoose
    ? enterprises.data?.find((e) => e._id === clientId)?.name
    : clientId === enterprise._id
      ? enterprise.name
      : null;

  return (
    <Stack>
      <Stack gap={2}>
        <Group justify="space-between" align="center" gap="xs">
          <Title order={2}>Dispositivos</Title>
          {/* Live once an enterprise is chosen: the feed of the user's scope, merged into this enterprise's rows. */}
          {clientId && devices.data && (
            <Suspense fallback={null}>
              <LiveDevices queryKey={clientDevicesKey(clientId)} />
            </Suspense>
          )}
        </Group>
        {enterpriseName && !canChoose && <Text c="dimmed">{enterpriseName}</Text>}
      </Stack>
      {canChoose && <EnterprisePicker value={clientId} onChange={choose} />}
      {!clientId ? (
        canChoose ? (
          <Text c="dimmed">Selecione uma empresa para ver os seus dispositivos.</Text>
        ) : (
          <Alert color="yellow" icon={<IconBuilding />}>
            Seu usuário não está vinculado a uma empresa.
          </Alert>
        )
      ) : (
        <>
          {devices.isError && (
            <Suspense fallback={null}>
              <ListErrorAlert />
            </Suspense>
          )}
          <DevicesTable
            devices={devices.data ?? []}
            loading={devices.isPending && !devices.isError}
            canRename={can(user.profile._id, 'devices:rename')}
            searchPlaceholder="Pesquisar dispositivos"
          />
        </>
      )}
    </Stack>
  );
}
