import '../styles';
import { Alert, Badge, Button, Code, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, Profile, type Gateway } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { useRequiredSession } from '../../../lib/session';
import { useGateways, useRevokeGateway } from '../api/gateways';
import { CreateGatewayModal } from './CreateGatewayModal';
import { RenameGatewayModal } from './RenameGatewayModal';

/**
 * /gateways "Gateways" (D5): the keys gateways send readings with. An enterprise admin manages its enterprise's,
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

  const columns: DataTableColumn<Gateway>[] = [
    { key: 'name', header: 'Nome', render: (g) => g.name, sortValue: (g) => g.name },
    ...(isSuperAdmin
      ? [{ key: 'enterprise', header: 'Empresa', render: (g: Gateway) => g.enterprise?.name ?? 'Plataforma', sortValue: (g: Gateway) => g.enterprise?.name ?? '' }]
      : []),
    { key: 'key', header: 'Chave', render: (g) => <Code>{g.key_prefix}…</Code> },
    {
      key: 'created_at',
      header: 'Criado em',
      render: (g) => <NoWrap>{formatDateTime(g.created_at)}</NoWrap>,
      sortValue: (g) => Date.parse(g.created_at),
    },
    {
      key: 'last_seen_at',
      header: 'Última atividade',
      render: (g) => <NoWrap>{g.last_seen_at ? formatDateTime(g.last_seen_at) : 'Nunca'}</NoWrap>,
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
      render: (g) => (
        <Badge color={g.revoked_at ? 'gray' : 'teal'} variant="light" style={{ minWidth: 'max-content' }} title={g.revoked_at ? `Revogado em ${formatDateTime(g.revoked_at)}` : undefined}>
          {g.revoked_at ? 'Revogado' : 'Ativo'}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: 'Ações',
      render: (g) => (
        <Group gap="xs" wrap="nowrap">
          <Button
            size="xs"
            variant="default"
            onClick={() => {
              setTarget(g);
              setRenaming(true);
            }}
          >
            Renomear
          </Button>
          <Button
            size="xs"
            variant="light"
            color="red"
            disabled={g.revoked_at !== null}
            onClick={() => {
              setTarget(g);
              setRevoking(true);
            }}
          >
            Revogar
          </Button>
        </Group>
      ),
    },
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
