import '@mantine/core/styles/Tabs.css';
import { Alert, Anchor, Badge, Button, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, Profile, standingOf, userActionRefusal, type UserAction, type UserDetail } from '@sentinela/contract';
import { IconAlertCircle, IconArrowLeft, IconUserPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { CardLine } from '../../../components/CardLine';
import { ListCard, ListCards } from '../../../components/ListCard';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { EnterprisePicker, useChosenEnterprise } from '../../../components/EnterprisePicker';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { paths, withQuery } from '../../../lib/paths';
import { useRequiredSession } from '../../../lib/session';
import { useEnterprise } from '../api/get-enterprise';
import { useUsersByClient } from '../api/list-users-by-client';
import { useSetUserActive } from '../api/set-user-active';
import { ResetPasswordModal } from './ResetPasswordModal';

type Tab = 'ativos' | 'inativos';

const searchText = (u: UserDetail) => `${u.name} ${u.username} ${u.email}`;

/**
 * /enterprise-users?id={clientId} (M4): the users of an enterprise, Ativos and Inativos, with the admin's
 * actions. The tab is kept in the URL (`tab=inativos`) so a view can be shared and restored.
 */
export function EnterpriseUsersPage() {
  const { user: me } = useRequiredSession();
  const { clientId, canChoose, choose } = useChosenEnterprise();
  const [searchParams, setSearchParams] = useSearchParams();
  const tab: Tab = searchParams.get('tab') === 'inativos' ? 'inativos' : 'ativos';
  const enterprise = useEnterprise(clientId);
  const users = useUsersByClient(clientId, tab === 'inativos');
  const setActive = useSetUserActive();

  // Each modal keeps its user while it closes, so its texts do not change under the animation.
  const [resetTarget, setResetTarget] = useState<UserDetail | null>(null);
  const [resetOpened, setResetOpened] = useState(false);
  const [toggleTarget, setToggleTarget] = useState<UserDetail | null>(null);
  const [toggleOpened, setToggleOpened] = useState(false);

  const selectTab = (value: string | null) =>
    setSearchParams(
      (previous) => {
        const next = new URLSearchParams(previous);
        if (value === 'inativos') next.set('tab', 'inativos');
        else next.delete('tab');
        return next;
      },
      { replace: true },
    );

  const confirmToggle = () => {
    if (!toggleTarget) return;
    const activate = toggleTarget.disabled;
    setActive.mutate(
      { userId: toggleTarget._id, active: activate },
      {
        onSuccess: ({ message }) => notifications.show({ color: 'teal', title: MSG.successTitle, message }),
        onError: () =>
          notifications.show({
            color: 'red',
            title: 'Erro!',
            message: activate ? 'Não foi possível ativar o usuário.' : MSG.userActivationFailed,
          }),
        onSettled: () => setToggleOpened(false),
      },
    );
  };

  // Ações of a row (one line) and of its card on a phone (wrapped): one function for both.
  const actions = (u: UserDetail, wrap: 'nowrap' | 'wrap' = 'nowrap') => {
    // Nobody deactivates or resets themselves here (the server refuses it too).
    if (u._id === me._id) return <Badge variant="outline" style={{ minWidth: 'max-content' }}>
          Você
        </Badge>;
    // The contract's one rule of who acts on whom (ADR 57): a second administrator sees the owner's logs only.
    const may = (action: UserAction) => userActionRefusal(standingOf(me), standingOf(u), action) === null;
    return (
      <Group gap="xs" wrap={wrap}>
        {may('link-devices') && (
          <Button
            size="xs"
            variant="default"
            component={Link}
            to={withQuery(paths.addBeacons, { id: u._id, numDevices: u.available_devices.length, eID: u.enterprise?._id ?? clientId })}
          >
            Dispositivos
          </Button>
        )}
        {may('edit') && (
          <Button size="xs" variant="light" component={Link} to={withQuery(paths.editUser, { id: u._id })}>
            Editar
          </Button>
        )}
        <Button size="xs" variant="light" color="gray" component={Link} to={withQuery(paths.accessLog, { user_id: u._id })}>
          Logs
        </Button>
        {/* X11: the changes of this user's record and what they did (the same admins read users and the trail). */}
        <Button size="xs" variant="light" color="gray" component={Link} to={withQuery(paths.auditTrail, { entity_id: u._id })}>
          Trilha
        </Button>
        {!u.disabled && may('reset-password') && (
          <Button
            size="xs"
            variant="light"
            onClick={() => {
              setResetTarget(u);
              setResetOpened(true);
            }}
          >
            Alterar senha
          </Button>
        )}
        {may('set-active') && (
          <Button
            size="xs"
            variant="light"
            color={u.disabled ? 'teal' : 'red'}
            onClick={() => {
              setToggleTarget(u);
              setToggleOpened(true);
            }}
          >
            {u.disabled ? 'Ativar' : 'Desativar'}
          </Button>
        )}
      </Group>
    );
  };

  const columns: DataTableColumn<UserDetail>[] = [
    {
      key: 'name',
      header: 'Nome',
      render: (u) =>
        u.isOwner ? (
          <Group gap={6} wrap="nowrap">
            {u.name}
            <OwnerBadge />
          </Group>
        ) : (
          u.name
        ),
      sortValue: (u) => u.name,
    },
    { key: 'username', header: 'Usuário', render: (u) => u.username, sortValue: (u) => u.username },
    {
      key: 'created_at',
      header: 'Data de criação',
      render: (u) => <NoWrap>{formatDateTime(u.created_at)}</NoWrap>,
      sortValue: (u) => Date.parse(u.created_at),
    },
    {
      key: 'devices',
      header: 'Dispositivos vinculados',
      render: (u) => formatInteger(u.available_devices.length),
      sortValue: (u) => u.available_devices.length,
    },
    { key: 'actions', header: 'Ações', render: (u) => actions(u) },
  ];

  const back = me.profile._id === Profile.SuperAdmin ? { to: paths.enterprises, label: 'Empresas' } : { to: paths.selectUser, label: 'Usuários' };
  const table = (
    <DataTable
      rows={users.data ?? []}
      columns={columns}
      rowKey={(u) => u._id}
      searchText={searchText}
      searchPlaceholder="Pesquisar usuários"
      emptyText="Nada encontrado..."
      loading={users.isPending && !users.isError}
      renderCards={(rows) => <UserCards users={rows} actions={(u) => actions(u, 'wrap')} />}
    />
  );

  return (
    <Stack>
      <Anchor component={Link} to={back.to} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {back.label}
        </Group>
      </Anchor>
      <Group justify="space-between">
        <Title order={2}>{enterprise.data ? `Usuários da empresa ${enterprise.data.name}` : 'Usuários da empresa'}</Title>
        {clientId && (
          <Button component={Link} to={withQuery(paths.registerUser, { id: clientId })} leftSection={<IconUserPlus size={16} />}>
            Novo usuário
          </Button>
        )}
      </Group>
      {canChoose && <EnterprisePicker value={clientId} onChange={choose} />}
      {!clientId ? (
        canChoose ? (
          <Text c="dimmed">Selecione uma empresa para ver os seus usuários.</Text>
        ) : (
          <Alert color="yellow">Seu usuário não está vinculado a uma empresa.</Alert>
        )
      ) : enterprise.isError ? (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(enterprise.error, 'Não foi possível carregar a empresa.')}
        </Alert>
      ) : (
        <Tabs value={tab} onChange={selectTab} keepMounted={false}>
          <Tabs.List mb="sm">
            <Tabs.Tab value="ativos">Ativos</Tabs.Tab>
            <Tabs.Tab value="inativos">Inativos</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="ativos">
            {users.isError && <LoadError error={users.error} />}
            {table}
          </Tabs.Panel>
          <Tabs.Panel value="inativos">
            {users.isError && <LoadError error={users.error} />}
            {table}
          </Tabs.Panel>
        </Tabs>
      )}

      <ResetPasswordModal user={resetTarget} opened={resetOpened} onClose={() => setResetOpened(false)} />
      <ConfirmModal
        opened={toggleOpened}
        title={toggleTarget?.disabled ? 'Ativar usuário' : 'Desativar usuário'}
        confirmLabel={toggleTarget?.disabled ? 'Ativar' : 'Desativar'}
        danger={!toggleTarget?.disabled}
        loading={setActive.isPending}
        onConfirm={confirmToggle}
        onClose={() => setToggleOpened(false)}
      >
        {toggleTarget?.disabled
          ? `Deseja ativar o usuário ${toggleTarget.name}? Ele poderá entrar novamente.`
          : `Deseja desativar o usuário ${toggleTarget?.name ?? ''}? Ele não poderá entrar até ser ativado novamente, e as sessões abertas serão encerradas.`}
      </ConfirmModal>
    </Stack>
  );
}

function OwnerBadge() {
  return (
    <Badge size="xs" variant="light" color="grape">
      Proprietário
    </Badge>
  );
}

/**
 * The users on a phone: one card per user instead of a table scrolled sideways, whose Dispositivos, Editar, Logs,
 * Trilha, Alterar senha and Desativar sat off screen. The same fields as the table's columns and the row's actions.
 */
function UserCards({ users, actions }: { users: readonly UserDetail[]; actions: (user: UserDetail) => ReactNode }) {
  return (
    <ListCards testId="user-cards">
      {users.map((u) => (
        <ListCard key={u._id} testId="user-card" title={u.name} badge={u.isOwner ? <OwnerBadge /> : undefined}>
          <CardLine label="Usuário">{u.username}</CardLine>
          <CardLine label="Data de criação">{formatDateTime(u.created_at)}</CardLine>
          <CardLine label="Dispositivos vinculados">{formatInteger(u.available_devices.length)}</CardLine>
          <div>{actions(u)}</div>
        </ListCard>
      ))}
    </ListCards>
  );
}

function LoadError({ error }: { error: unknown }) {
  return (
    <Alert color="red" title="Erro!" icon={<IconAlertCircle />} mb="sm">
      {errorMessage(error, 'Não foi possível carregar os usuários.')}
    </Alert>
  );
}
