import { Alert, Badge, Button, Group, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, type EnterpriseSummary } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { CardLine } from '../../../components/CardLine';
import { ListCard, ListCards } from '../../../components/ListCard';
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

  // Ações of a row and of its card on a phone (one function for both); the row keeps them on one line, a card wraps them.
  const actionsOf = (e: EnterpriseSummary) => (
    <>
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
    </>
  );

  const columns: DataTableColumn<EnterpriseSummary>[] = [
    { key: 'name', header: 'Nome', render: (e) => e.name, sortValue: (e) => e.name },
    {
      key: 'status',
      header: 'Status',
      render: (e) => <StatusBadge enterprise={e} />,
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
          {actionsOf(e)}
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
        renderCards={(rows) => <EnterpriseCards enterprises={rows} actions={actionsOf} />}
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

function StatusBadge({ enterprise }: { enterprise: EnterpriseSummary }) {
  return (
    <Badge color={enterprise.disabled ? 'gray' : 'teal'} variant="light" style={{ minWidth: 'max-content' }}>
      {enterprise.disabled ? 'Inativa' : 'Ativa'}
    </Badge>
  );
}

/**
 * Empresas on a phone: one card per enterprise instead of a table scrolled sideways, whose Visualizar Usuários,
 * Dispositivos and Desativar sat off screen. The same fields as the table's columns and the same actions as its row.
 */
function EnterpriseCards({
  enterprises,
  actions,
}: {
  enterprises: readonly EnterpriseSummary[];
  actions: (enterprise: EnterpriseSummary) => ReactNode;
}) {
  return (
    <ListCards testId="enterprise-cards">
      {enterprises.map((e) => (
        <ListCard key={e._id} testId="enterprise-card" title={e.name} badge={<StatusBadge enterprise={e} />}>
          <CardLine label="Data de criação">{formatDateTime(e.created_at)}</CardLine>
          <CardLine label="Dispositivos vinculados">{formatInteger(e.available_devices.length)}</CardLine>
          <CardLine label="Usuários vinculados">{formatInteger(e.users.length)}</CardLine>
          <Group gap="xs" wrap="wrap">
            {actions(e)}
          </Group>
        </ListCard>
      ))}
    </ListCards>
  );
}
