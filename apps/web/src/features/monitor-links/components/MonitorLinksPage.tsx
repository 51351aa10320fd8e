import '../styles';
import { Alert, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, Profile, type MonitorLink } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger, pluralize } from '../../../lib/format';
import { useRequiredSession } from '../../../lib/session';
import { useMonitorLinks, useRevokeMonitorLink } from '../api/monitor-links';
import { CreateMonitorLinkModal } from './CreateMonitorLinkModal';

type LinkStatus = 'active' | 'expired' | 'revoked';

function statusOf(link: MonitorLink, now: number): LinkStatus {
  if (link.revoked_at) return 'revoked';
  return Date.parse(link.expires_at) <= now ? 'expired' : 'active';
}

const STATUS_BADGE: Record<LinkStatus, { label: string; color: string }> = {
  active: { label: 'Ativo', color: 'teal' },
  expired: { label: 'Expirado', color: 'orange' },
  revoked: { label: 'Revogado', color: 'gray' },
};


/** "2 viagens, 3 dispositivos", with the names on hover. */
function scopeSummary(link: MonitorLink): string {
  const parts = [];
  if (link.travels.length > 0) parts.push(pluralize(link.travels.length, 'viagem', 'viagens'));
  if (link.devices.length > 0) parts.push(pluralize(link.devices.length, 'dispositivo', 'dispositivos'));
  return parts.join(', ') || 'Nada (itens removidos)';
}

const scopeDetail = (link: MonitorLink) => [...link.travels.map((t) => `Viagem ${t.code}`), ...link.devices.map((d) => d.name)].join(', ');

/**
 * /monitor-links "Links de monitoramento" (issue 11, item 6; ADR 26): read-only links for wall displays. An
 * enterprise admin manages its enterprise's, the super admin every one. A link's address is shown once, at creation.
 */
export function MonitorLinksPage() {
  const { user } = useRequiredSession();
  const isSuperAdmin = user.profile._id === Profile.SuperAdmin;
  const links = useMonitorLinks();
  const revoke = useRevokeMonitorLink();
  const [creating, setCreating] = useState(false);
  const [target, setTarget] = useState<MonitorLink | null>(null);
  const [revoking, setRevoking] = useState(false);
  // When the list was read: a link's status is judged at that moment (it refreshes with the list).
  const now = links.dataUpdatedAt;

  const confirmRevoke = () => {
    if (!target) return;
    revoke.mutate(target._id, {
      onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: `Link ${target.name} revogado.` }),
      onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível revogar o link.') }),
      onSettled: () => setRevoking(false),
    });
  };

  const columns: DataTableColumn<MonitorLink>[] = [
    { key: 'name', header: 'Nome', render: (l) => l.name, sortValue: (l) => l.name },
    ...(isSuperAdmin ? [{ key: 'enterprise', header: 'Empresa', render: (l: MonitorLink) => l.enterprise.name, sortValue: (l: MonitorLink) => l.enterprise.name }] : []),
    {
      key: 'scope',
      header: 'Mostra',
      render: (l) => (
        <Text size="sm" title={scopeDetail(l)}>
          {scopeSummary(l)}
        </Text>
      ),
    },
    {
      key: 'expires_at',
      header: 'Validade',
      render: (l) => <NoWrap>{formatDateTime(l.expires_at)}</NoWrap>,
      sortValue: (l) => Date.parse(l.expires_at),
    },
    {
      key: 'last_used_at',
      header: 'Último uso',
      render: (l) => <NoWrap>{l.last_used_at ? formatDateTime(l.last_used_at) : 'Nunca'}</NoWrap>,
      sortValue: (l) => (l.last_used_at ? Date.parse(l.last_used_at) : null),
    },
    { key: 'use_count', header: 'Usos', render: (l) => formatInteger(l.use_count), sortValue: (l) => l.use_count },
    {
      key: 'status',
      header: 'Status',
      render: (l) => {
        const badge = STATUS_BADGE[statusOf(l, now)];
        return (
          <Badge color={badge.color} variant="light" style={{ minWidth: 'max-content' }} title={l.revoked_at ? `Revogado em ${formatDateTime(l.revoked_at)}` : undefined}>
            {badge.label}
          </Badge>
        );
      },
    },
    {
      key: 'actions',
      header: 'Ações',
      render: (l) => (
        <Button
          size="xs"
          variant="light"
          color="red"
          disabled={l.revoked_at !== null}
          onClick={() => {
            setTarget(l);
            setRevoking(true);
          }}
        >
          Revogar
        </Button>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Title order={2}>Links de monitoramento</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Criar link
        </Button>
      </Group>
      <Text size="sm" c="dimmed">
        Para telas de uma sala de controle: um link mostra, sem login e somente para leitura, as viagens e os dispositivos escolhidos, ao
        vivo, até a validade ou até ser revogado. O endereço aparece só uma vez, ao criar o link; cada acesso fica no log de acesso de quem o
        criou.
      </Text>
      {links.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(links.error, 'Não foi possível carregar os links de monitoramento.')}
        </Alert>
      )}
      <DataTable
        rows={links.data ?? []}
        columns={columns}
        rowKey={(l) => l._id}
        searchText={(l) => `${l.name} ${l.enterprise.name} ${scopeDetail(l)}`}
        searchPlaceholder="Pesquisar links"
        emptyText={links.isError ? 'Não foi possível carregar os links de monitoramento.' : 'Nenhum link de monitoramento criado'}
        loading={links.isPending && !links.isError}
      />
      <CreateMonitorLinkModal opened={creating} onClose={() => setCreating(false)} user={user} choosesEnterprise={isSuperAdmin} />
      <ConfirmModal
        opened={revoking}
        title="Revogar link"
        confirmLabel="Revogar"
        danger
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(false)}
      >
        {`Deseja revogar o link ${target?.name ?? ''}? As telas que o usam deixam de mostrar os dados imediatamente, e isso não pode ser desfeito.`}
      </ConfirmModal>
    </Stack>
  );
}
