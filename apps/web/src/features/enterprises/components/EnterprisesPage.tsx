import { Alert, Badge, Button, Group, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, type EnterpriseSummary } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { useEnterprises } from '../../../components/EnterprisePicker';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { paths, withQuery } from '../../../lib/paths';
import { useSetEnterpriseActive } from '../api/set-enterprise-active';

const searchText = (e: EnterpriseSummary) => `${e.name} ${e.email ?? ''} ${e.userOwner?.username ?? ''}`;

/** /enterprises "Empresas" (M2): every enterprise, its counts, and what the super admin does with it. */
export function EnterprisesPage() {
  const enterprises = useEnterprises();
  const setActive = useSetEnterpriseActive();
  // The enterprise stays set while the modal closes, so its texts do not change under the animation.
  const [target, setTarget] = useState<EnterpriseSummary | null>(null);
  const [confirming, setConfirming] = useState(false);
  const ask = (e: EnterpriseSummary) => {
    setTarget(e);
    setConfirming(true);
  };

  const confirm = () => {
    if (!target) return;
    const activate = target.disabled;
    setActive.mutate(
      { clientId: target._id, active: activate },
      {
        onSuccess: ({ message }) => notifications.show({ color: 'teal', title: MSG.successTitle, message }),
        onError: () =>
          notifications.show({
            color: 'red',
            title: 'Erro!',
            message: activate ? 'Não foi possível ativar a empresa.' : 'Não foi possível desativar a empresa.',
          }),
        onSettled: () => setConfirming(false),
      },
    );
  };

  const columns: DataTableColumn<EnterpriseSummary>[] = [
    { key: 'name', header: 'Nome', render: (e) => e.name, sortValue: (e) => e.name },
    {
      key: 'status',
      header: 'Status',
      render: (e) => (
        <Badge color={e.disabled ? 'gray' : 'teal'} variant="light" style={{ minWidth: 'max-content' }}>
          {e.disabled ? 'Inativa' : 'Ativa'}
        </Badge>
      ),
    },
    {
      key: 'created_at',
      header: 'Data de criação',
      render: (e) => <NoWrap>{formatDateTime(e.created_at)}</NoWrap>,
      sortValue: (e) => Date.parse(e.created_at),
    },
    {
      key: 'devices',
      header: 'Dispositivos vinculados',
      render: (e) => formatInteger(e.available_devices.length),
      sortValue: (e) => e.available_devices.length,
    },
    {
      key: 'users',
      header: 'Usuários vinculados',
      render: (e) => formatInteger(e.users.length),
      sortValue: (e) => e.users.length,
    },
    {
      key: 'actions',
      header: 'Ações',
      render: (e) => (
        <Group gap="xs" wrap="nowrap">
          <Button size="xs" variant="light" component={Link} to={withQuery(paths.enterpriseUsers, { id: e._id })}>
            Visualizar Usuários
          </Button>
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={withQuery(paths.addBeacons, { id: e._id, user_id: e.userOwner?._id, numDevices: e.available_devices.length })}
          >
            Dispositivos
          </Button>
          <Button size="xs" variant="light" color={e.disabled ? 'teal' : 'red'} onClick={() => ask(e)}>
            {e.disabled ? 'Ativar' : 'Desativar'}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Title order={2}>Empresas</Title>
        <Button component={Link} to={paths.registerEnterprise} leftSection={<IconPlus size={16} />}>
          Cadastrar Nova Empresa
        </Button>
      </Group>
      {enterprises.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          Não foi possível carregar as empresas.
        </Alert>
      )}
      <DataTable
        rows={enterprises.data ?? []}
        columns={columns}
        rowKey={(e) => e._id}
        searchText={searchText}
        searchPlaceholder="Pesquisar empresas"
        emptyText="Nada encontrado..."
        loading={enterprises.isPending && !enterprises.isError}
      />
      <ConfirmModal
        opened={confirming}
        title={target?.disabled ? 'Ativar empresa' : 'Desativar empresa'}
        confirmLabel={target?.disabled ? 'Ativar' : 'Desativar'}
        danger={!target?.disabled}
        loading={setActive.isPending}
        onConfirm={confirm}
        onClose={() => setConfirming(false)}
      >
        {target?.disabled
          ? `Deseja ativar a empresa ${target.name}? Os usuários dela poderão entrar novamente.`
          : `Deseja desativar a empresa ${target?.name ?? ''}? Os usuários dela não poderão entrar enquanto ela estiver inativa.`}
      </ConfirmModal>
    </Stack>
  );
}
