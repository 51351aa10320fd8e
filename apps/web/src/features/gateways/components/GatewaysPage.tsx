import '../styles';
import { Alert, Badge, Button, Code, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, Profile, type Gateway } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { useRequiredSession } from '../../../lib/session';
import { useGateways, useRevokeGateway } from '../api/gateways';
import { CreateGatewayModal } from './CreateGatewayModal';
import { HowToConnect } from './HowToConnect';
import { RenameGatewayModal } from './RenameGatewayModal';

/** Names longer than this may not fit their cell: they get the tooltip with the whole name. */
const NAME_SHOWN = 28;
const NAME_MAX_WIDTH = 220;

/**
 * /gateways "Gateways" (D5, X2): the keys gateways send readings with. An enterprise admin manages its enterprise's,
 * the super admin every one (and platform gateways). A key is shown once, at creation; revoking is immediate.
 */
export function GatewaysPage() {
  const { user } = useRequiredSession();
  const isSuperAdmin = user.profile._id === Profile.SuperAdmin;
  const gateways = useGateways();
  const revoke = useRevokeGateway();
  const [creating, setCreating] = useState(false);
  // The gateway stays set while a modal closes, so its texts do not change under the animation.
  const [target, setTarget] = useState<Gateway | null>(null);
  const [renaming, setRenaming] = useState(false);
  const [revoking, setRevoking] = useState(false);

  const confirmRevoke = () => {
    if (!target) return;
    revoke.mutate(target._id, {
      onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: `Gateway ${target.name} revogado.` }),
      onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível revogar o gateway.') }),
      onSettled: () => setRevoking(false),
    });
  };

  const rename = (g: Gateway) => {
    setTarget(g);
    setRenaming(true);
  };
  const askRevoke = (g: Gateway) => {
    setTarget(g);
    setRevoking(true);
  };
  // Wrap within their cell or card: a long name never pushes them off the screen.
  const actions = (g: Gateway) => (
    <Group gap="xs" wrap="wrap" miw={96}>
      <Button size="xs" variant="default" onClick={() => rename(g)}>
        Renomear
      </Button>
      <Button size="xs" variant="light" color="red" disabled={g.revoked_at !== null} onClick={() => askRevoke(g)}>
        Revogar
      </Button>
    </Group>
  );

  const columns: DataTableColumn<Gateway>[] = [
    {
      key: 'name',
      header: 'Nome',
      // A long name is cut on one line (the whole of it in the tooltip), so the actions stay on screen.
      render: (g) => (
        <Tooltip label={g.name} disabled={g.name.length <= NAME_SHOWN} multiline maw={320} withArrow events={{ hover: true, focus: true, touch: true }}>
          <Text size="sm" truncate="end" maw={NAME_MAX_WIDTH} data-testid="gateway-name" tabIndex={g.name.length > NAME_SHOWN ? 0 : undefined}>
            {g.name}
          </Text>
        </Tooltip>
      ),
      sortValue: (g) => g.name,
    },
    ...(isSuperAdmin
      ? [{ key: 'enterprise', header: 'Empresa', render: (g: Gateway) => g.enterprise?.name ?? 'Plataforma', sortValue: (g: Gateway) => g.enterprise?.name ?? '' }]
      : []),
    { key: 'key', header: 'Chave', render: (g) => <Code>{g.key_prefix}…</Code> },
    {
      key: 'created_at',
      header: 'Criado em',
      // Dates may break between day and time: with the super admin's Empresa column the actions must still fit.
      render: (g) => formatDateTime(g.created_at),
      sortValue: (g) => Date.parse(g.created_at),
    },
    {
      key: 'last_seen_at',
      header: 'Última atividade',
      render: (g) => (g.last_seen_at ? formatDateTime(g.last_seen_at) : 'Nunca'),
      sortValue: (g) => (g.last_seen_at ? Date.parse(g.last_seen_at) : null),
    },
    {
      key: 'rejected_today',
      header: 'Rejeitadas hoje',
      render: (g) => (g.rejected_today > 0 ? <Text c="orange" fw={600} size="sm">{formatInteger(g.rejected_today)}</Text> : formatInteger(0)),
      sortValue: (g) => g.rejected_today,
    },
    {
      key: 'status',
      header: 'Status',
      render: (g) => <StatusBadge gateway={g} />,
    },
    { key: 'actions', header: 'Ações', render: (g) => actions(g) },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Title order={2}>Gateways</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Novo gateway
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Cada gateway envia as leituras dos beacons com a sua própria chave. A chave aparece só uma vez, ao criar o gateway; revogar
        interrompe o envio na hora.
      </Text>
      <HowToConnect />
      {gateways.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(gateways.error, 'Não foi possível carregar os gateways.')}
        </Alert>
      )}
      <DataTable
        rows={gateways.data ?? []}
        columns={columns}
        rowKey={(g) => g._id}
        searchText={(g) => `${g.name} ${g.key_prefix} ${g.enterprise?.name ?? ''}`}
        searchPlaceholder="Pesquisar gateways"
        emptyText={gateways.isError ? 'Não foi possível carregar os gateways.' : 'Nenhum gateway cadastrado'}
        loading={gateways.isPending && !gateways.isError}
        renderCards={(rows) => (
          <Stack gap="sm">
            {rows.map((g) => (
              <GatewayCard key={g._id} gateway={g} showEnterprise={isSuperAdmin} actions={actions(g)} />
            ))}
          </Stack>
        )}
      />
      <CreateGatewayModal opened={creating} onClose={() => setCreating(false)} choosesEnterprise={isSuperAdmin} />
      <RenameGatewayModal key={target?._id ?? 'none'} gateway={target} opened={renaming} onClose={() => setRenaming(false)} />
      <ConfirmModal
        opened={revoking}
        title="Revogar gateway"
        confirmLabel="Revogar"
        danger
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(false)}
      >
        {`Deseja revogar o gateway ${target?.name ?? ''}? A chave ${target?.key_prefix ?? ''}… deixa de funcionar imediatamente, e isso não pode ser desfeito.`}
      </ConfirmModal>
    </Stack>
  );
}

function StatusBadge({ gateway }: { gateway: Gateway }) {
  return (
    <Badge
      color={gateway.revoked_at ? 'gray' : 'teal'}
      variant="light"
      style={{ minWidth: 'max-content' }}
      title={gateway.revoked_at ? `Revogado em ${formatDateTime(gateway.revoked_at)}` : undefined}
    >
      {gateway.revoked_at ? 'Revogado' : 'Ativo'}
    </Badge>
  );
}

/** A gateway on a phone: the whole name (wrapped, never cut), what the table's columns say, and the actions. */
function GatewayCard({ gateway, showEnterprise, actions }: { gateway: Gateway; showEnterprise: boolean; actions: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="gateway-card">
      <Stack gap={6}>
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
            {gateway.name}
          </Text>
          <StatusBadge gateway={gateway} />
        </Group>
        {showEnterprise && (
          <Text size="xs" c="dimmed">
            {gateway.enterprise?.name ?? 'Plataforma'}
          </Text>
        )}
        <Text size="xs">
          Chave <Code>{gateway.key_prefix}…</Code> · criado em {formatDateTime(gateway.created_at)}
        </Text>
        <Text size="xs">
          Última atividade: {gateway.last_seen_at ? formatDateTime(gateway.last_seen_at) : 'Nunca'}
          {gateway.rejected_today > 0 && (
            <Text span c="orange" fw={600} size="xs">
              {' '}
              · {formatInteger(gateway.rejected_today)} rejeitadas hoje
            </Text>
          )}
        </Text>
        {actions}
      </Stack>
    </Paper>
  );
}
