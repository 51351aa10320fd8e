import { Alert, Stack, Text, Title } from '@mantine/core';
import { can } from '@sentinela/contract';
import { IconAlertCircle, IconBuilding } from '@tabler/icons-react';
import { EnterprisePicker, useChosenEnterprise, useEnterprises } from '../../../components/EnterprisePicker';
import { useRequiredSession } from '../../../lib/session';
import { useClientDevices } from '../api/list-client-devices';
import { DevicesTable } from './DevicesTable';

/**
 * /client-devices "Dispositivos" (D2): the devices of one enterprise, in the table of Meus Dispositivos.
 * The enterprise is `?id=`, or the user's own; the super admin picks one. The documents also pass
 * `numDevices`; the list itself gives the count, so it is not needed here.
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
        <Title order={2}>Dispositivos</Title>
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
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              Não foi possível encontrar dispositivos
            </Alert>
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
