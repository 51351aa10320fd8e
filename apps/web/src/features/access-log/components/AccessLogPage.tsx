import { Alert, Paper, Stack, Text, Title } from '@mantine/core';
import type { AccessLogEntry } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { RetryAlert } from '../../../components/QueryStatus';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { useAccessLog } from '../api/list-access-log';

const text = (value: string | null) => value ?? EMPTY;

const columns: DataTableColumn<AccessLogEntry>[] = [
  { key: 'created_at', header: 'Data/Hora', render: (e) => <NoWrap>{formatDateTime(e.created_at)}</NoWrap>, sortValue: (e) => Date.parse(e.created_at) },
  { key: 'client', header: 'Cliente (dispositivo)', render: (e) => text(e.client), sortValue: (e) => e.client },
  { key: 'clientVersion', header: 'Versão da aplicação', render: (e) => text(e.clientVersion), sortValue: (e) => e.clientVersion },
  { key: 'clientOs', header: 'Sistema operacional', render: (e) => text(e.clientOs), sortValue: (e) => e.clientOs },
  { key: 'ip', header: 'IP', render: (e) => text(e.ip), sortValue: (e) => e.ip },
  { key: 'apiVersion', header: 'Versão da API', render: (e) => e.apiVersion, sortValue: (e) => e.apiVersion },
  { key: 'user', header: 'Usuário', render: (e) => e.user?.name ?? EMPTY, sortValue: (e) => e.user?.name ?? null },
  { key: 'message', header: 'Mensagem', render: (e) => e.message, sortValue: (e) => e.message },
];

/** /acess-log?user_id={id} "Logs de acesso" (M7): the user's access log, as the server recorded each call. */
export function AccessLogPage() {
  const [params] = useSearchParams();
  const userId = params.get('user_id');
  const log = useAccessLog(userId);
  const name = log.data?.find((e) => e.user)?.user?.name;

  return (
    <Stack>
      <Stack gap={2}>
        <Title order={2}>Logs de acesso</Title>
        {name && (
          <Text c="dimmed" size="sm">
            {name}
          </Text>
        )}
      </Stack>
      {!userId ? (
        <Alert color="yellow" icon={<IconAlertCircle />}>
          Escolha um usuário em Usuários para ver os seus logs de acesso.
        </Alert>
      ) : log.isError ? (
        <RetryAlert message={errorMessage(log.error, 'Não foi possível carregar os logs de acesso.')} onRetry={() => void log.refetch()} retrying={log.isFetching} />
      ) : (
        // The documents show "Carregando..." while the table is empty; once loaded, an empty log says so.
        <DataTable
          rows={log.data ?? []}
          columns={columns}
          rowKey={(e) => e._id}
          emptyText={log.isPending ? 'Carregando...' : 'Nada encontrado.'}
          loading={log.isPending}
          renderCards={(rows) => (
            <Stack gap="xs">
              {rows.map((entry) => (
                <EntryCard key={entry._id} entry={entry} />
              ))}
            </Stack>
          )}
        />
      )}
    </Stack>
  );
}

/** An entry on a phone: what was done first, then when, by whom and from where (the same fields as the columns). */
function EntryCard({ entry }: { entry: AccessLogEntry }) {
  return (
    <Paper withBorder radius="md" p="sm" data-testid="access-log-card">
      <Text fw={600} size="sm">
        {entry.message}
      </Text>
      <Text size="xs" c="dimmed">
        {formatDateTime(entry.created_at)} · {entry.user?.name ?? EMPTY}
      </Text>
      <Text size="xs" c="dimmed">
        {text(entry.client)} {text(entry.clientVersion)} · {text(entry.clientOs)} · IP {text(entry.ip)} · API {entry.apiVersion}
      </Text>
    </Paper>
  );
}
