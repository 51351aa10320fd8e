import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { UserDetail } from '@sentinela/contract';
import { IconAlertCircle, IconDevices, IconUsers } from '@tabler/icons-react';
import { Link } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { EnterprisePicker, useChosenEnterprise } from '../../../components/EnterprisePicker';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { paths, withQuery } from '../../../lib/paths';
import { useRequiredSession } from '../../../lib/session';
import { useUsersByClient } from '../api/list-users-by-client';

const searchText = (u: UserDetail) => `${u.name} ${u.username} ${u.email}`;
const profileName = (u: UserDetail) => u.profile.name;

/**
 * /select-user "Usuários" (M8): the active users of an enterprise, to choose whom to manage: Gerenciar opens the
 * user's devices (/add-beacons); each user shows how many are linked to it.
 */
export function SelectUserPage() {
  const { enterprise } = useRequiredSession();
  const { clientId, canChoose, choose } = useChosenEnterprise();
  const users = useUsersByClient(clientId, false);
  const manage = clientId ? withQuery(paths.enterpriseUsers, { id: clientId }) : paths.enterpriseUsers;

  const columns: DataTableColumn<UserDetail>[] = [
    { key: 'name', header: 'Nome', render: (u) => u.name, sortValue: (u) => u.name },
    { key: 'username', header: 'Usuário', render: (u) => u.username, sortValue: (u) => u.username },
    { key: 'profile', header: 'Perfil', render: profileName, sortValue: profileName },
    {
      key: 'devices',
      header: 'Dispositivos vinculados',
      render: (u) => formatInteger(u.available_devices.length),
      sortValue: (u) => u.available_devices.length,
    },
    {
      key: 'created_at',
      header: 'Data de criação',
      render: (u) => <NoWrap>{formatDateTime(u.created_at)}</NoWrap>,
      sortValue: (u) => Date.parse(u.created_at),
    },
    {
      key: 'actions',
      header: 'Ações',
      // The chosen user's devices (M6, M8).
      render: (u) => (
        <Button
          size="xs"
          variant="light"
          component={Link}
          to={withQuery(paths.addBeacons, { id: u._id, numDevices: u.available_devices.length, eID: u.enterprise?._id ?? clientId })}
        >
          Gerenciar
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm" align="flex-end">
        <Stack gap={2}>
          <Title order={2}>Usuários</Title>
          <Text c="dimmed" size="sm">
            {canChoose ? 'Escolha a empresa e o usuário que deseja gerenciar.' : `Usuários de ${enterprise.name ?? 'sua empresa'}.`}
          </Text>
        </Stack>
        {clientId && (
          <Group gap="xs">
            <Button variant="default" component={Link} to={manage} leftSection={<IconUsers size={16} />}>
              Usuários da empresa
            </Button>
            <Button variant="default" component={Link} to={withQuery(paths.clientDevices, { id: clientId })} leftSection={<IconDevices size={16} />}>
              Dispositivos da empresa
            </Button>
          </Group>
        )}
      </Group>
      {canChoose && <EnterprisePicker value={clientId} onChange={choose} />}
      {!clientId ? (
        canChoose ? (
          <Text c="dimmed">Selecione uma empresa para ver os seus usuários.</Text>
        ) : (
          <Alert color="yellow">Seu usuário não está vinculado a uma empresa.</Alert>
        )
      ) : (
        <>
          {users.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(users.error, 'Não foi possível carregar os usuários.')}
            </Alert>
          )}
          <DataTable
            rows={users.data ?? []}
            columns={columns}
            rowKey={(u) => u._id}
            searchText={searchText}
            searchPlaceholder="Pesquisar usuários"
            emptyText="Nada encontrado..."
            loading={users.isPending && !users.isError}
          />
        </>
      )}
    </Stack>
  );
}
