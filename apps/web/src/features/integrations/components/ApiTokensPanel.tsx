import { Alert, Badge, Button, Card, Code, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { API_TOKEN_SCOPE_NAMES, MSG, type ApiToken, type ApiTokenStatus } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatDateTimeMinutes } from '../../../lib/format';
import { useApiTokens, useRevokeApiToken } from '../api/api-tokens';
import { CreateApiTokenModal } from './CreateApiTokenModal';

const STATUS: Record<ApiTokenStatus, { label: string; color: string }> = {
  active: { label: 'Ativo', color: 'teal' },
  expired: { label: 'Expirado', color: 'gray' },
  revoked: { label: 'Revogado', color: 'gray' },
  creator_inactive: { label: 'Criador inativo', color: 'orange' },
};

function StatusBadge({ token }: { token: ApiToken }) {
  const status = STATUS[token.status];
  const title =
    token.status === 'creator_inactive'
      ? 'Quem criou este token não é mais administrador ativo da empresa: o token parou de funcionar. Crie outro.'
      : token.revoked_at
        ? `Revogado em ${formatDateTime(token.revoked_at)}`
        : undefined;
  return (
    <Badge color={status.color} variant="light" style={{ minWidth: 'max-content' }} title={title}>
      {status.label}
    </Badge>
  );
}

function Scopes({ token }: { token: ApiToken }) {
  return (
    <Group gap={4}>
      {token.scopes.map((scope) => (
        <Badge key={scope} variant="outline" color="gray" size="sm" title={API_TOKEN_SCOPE_NAMES[scope]} style={{ textTransform: 'none' }}>
          {scope}
        </Badge>
      ))}
    </Group>
  );
}

const lastUse = (t: ApiToken) => (t.last_used_at ? formatDateTimeMinutes(t.last_used_at) : 'Nunca');
const validity = (t: ApiToken) => (t.expires_at ? formatDateTimeMinutes(t.expires_at) : 'Sem validade');

/** Tokens de API: the enterprise's tokens (value shown once, at creation), revoked at once. */
export function ApiTokensPanel() {
  const tokens = useApiTokens();
  const revoke = useRevokeApiToken();
  const [creating, setCreating] = useState(false);
  // Kept while the confirmation closes, so its text does not change under the animation.
  const [target, setTarget] = useState<ApiToken | null>(null);
  const [revoking, setRevoking] = useState(false);

  const askRevoke = (token: ApiToken) => {
    setTarget(token);
    setRevoking(true);
  };
  const confirmRevoke = () => {
    if (!target) return;
    revoke.mutate(target._id, {
      onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: `Token ${target.name} revogado.` }),
      onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível revogar o token.') }),
      onSettled: () => setRevoking(false),
    });
  };
  const revokeButton = (t: ApiToken) => (
    <Button size="xs" variant="light" color="red" disabled={t.revoked_at !== null} onClick={() => askRevoke(t)} aria-label={`Revogar ${t.name}`}>
      Revogar
    </Button>
  );

  const columns: DataTableColumn<ApiToken>[] = [
    { key: 'name', header: 'Nome', render: (t) => t.name, sortValue: (t) => t.name },
    { key: 'token', header: 'Token', render: (t) => <Code>{t.token_prefix}…</Code> },
    { key: 'scopes', header: 'Escopos', render: (t) => <Scopes token={t} /> },
    { key: 'created_by', header: 'Criado por', render: (t) => t.created_by?.name ?? '--' },
    { key: 'created_at', header: 'Criado em', render: (t) => <NoWrap>{formatDateTime(t.created_at)}</NoWrap>, sortValue: (t) => Date.parse(t.created_at) },
    { key: 'last_used_at', header: 'Último uso', render: (t) => <NoWrap>{lastUse(t)}</NoWrap>, sortValue: (t) => (t.last_used_at ? Date.parse(t.last_used_at) : null) },
    { key: 'expires_at', header: 'Validade', render: (t) => <NoWrap>{validity(t)}</NoWrap> },
    { key: 'status', header: 'Status', render: (t) => <StatusBadge token={t} /> },
    { key: 'actions', header: 'Ações', render: revokeButton },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 20rem' }}>
          Outros sistemas enviam o token no cabeçalho <Code>Authorization: Bearer &lt;token&gt;</Code>. Ele age na empresa como um
          administrador, limitado aos escopos escolhidos; o valor aparece só uma vez, ao criar.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Novo token
        </Button>
      </Group>
      {tokens.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(tokens.error, 'Não foi possível carregar os tokens.')}
        </Alert>
      )}
      <DataTable
        rows={tokens.data ?? []}
        columns={columns}
        rowKey={(t) => t._id}
        searchText={(t) => `${t.name} ${t.token_prefix} ${t.scopes.join(' ')} ${t.created_by?.name ?? ''}`}
        searchPlaceholder="Pesquisar tokens"
        emptyText={tokens.isError ? 'Não foi possível carregar os tokens.' : 'Nenhum token criado'}
        loading={tokens.isPending && !tokens.isError}
        renderCards={(rows) => (
          <Stack gap="sm">
            {rows.map((t) => (
              <Card key={t._id} withBorder padding="sm" data-testid="token-card">
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                      {t.name}
                    </Text>
                    <StatusBadge token={t} />
                  </Group>
                  <Code>{t.token_prefix}…</Code>
                  <Scopes token={t} />
                  <Text size="xs" c="dimmed">
                    Criado em {formatDateTime(t.created_at)}
                    {t.created_by ? ` por ${t.created_by.name}` : ''} · Último uso: {lastUse(t)} · Validade: {validity(t)}
                  </Text>
                  <Group justify="flex-end">{revokeButton(t)}</Group>
                </Stack>
              </Card>
            ))}
          </Stack>
        )}
      />
      <CreateApiTokenModal opened={creating} onClose={() => setCreating(false)} />
      <ConfirmModal
        opened={revoking}
        title="Revogar token"
        confirmLabel="Revogar"
        danger
        loading={revoke.isPending}
        onConfirm={confirmRevoke}
        onClose={() => setRevoking(false)}
      >
        {`Deseja revogar o token ${target?.name ?? ''}? O token ${target?.token_prefix ?? ''}… deixa de funcionar imediatamente, e isso não pode ser desfeito.`}
      </ConfirmModal>
    </Stack>
  );
}
