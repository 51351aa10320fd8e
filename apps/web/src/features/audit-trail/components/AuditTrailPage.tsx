import { Alert, Badge, Button, Group, Pagination, Paper, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import type { AuditEntry } from '@sentinela/contract';
import { IconFileSpreadsheet, IconFileTypePdf, IconShieldCheck, IconShieldX } from '@tabler/icons-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { RetryAlert } from '../../../components/QueryStatus';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useAuditTrail, useExportAuditTrail, useVerifyAuditTrail, type AuditFilters } from '../api/audit-trail';
import { ACTION_LABELS, ACTOR_TYPE_LABELS, ENTITY_LABELS, fieldLabel, formatValue } from '../labels';

const FILTER_KEYS = ['entity', 'entity_id', 'actor', 'from', 'to', 'enterprise_id'] as const;

/** A date field (YYYY-MM-DD) as the instant the API takes: the day's start, or its end for "até". */
const dayStart = (day: string) => (day ? new Date(`${day}T00:00:00`).toISOString() : undefined);
const dayEnd = (day: string) => (day ? new Date(`${day}T23:59:59.999`).toISOString() : undefined);

/**
 * /audit-trail "Trilha de auditoria" (X11, ADR 0060): who changed which record, when, from what to what, why and from
 * where, with the chain's verification. Filters live in the URL, so the device history and the user screens open it
 * filtered and a view can be shared.
 */
export function AuditTrailPage() {
  const [params, setParams] = useSearchParams();
  const value = (key: string) => params.get(key) ?? '';
  const [draft, setDraft] = useState(() => Object.fromEntries(FILTER_KEYS.map((k) => [k, value(k)])) as Record<(typeof FILTER_KEYS)[number], string>);
  const page = Math.max(1, Number(params.get('page')) || 1);
  const filters: AuditFilters = {
    entity: value('entity') || undefined,
    entity_id: value('entity_id') || undefined,
    actor: value('actor') || undefined,
    from: dayStart(value('from')),
    to: dayEnd(value('to')),
    enterprise_id: value('enterprise_id') || undefined,
    page,
  };
  const trail = useAuditTrail(filters);
  const verify = useVerifyAuditTrail();
  const exporting = useExportAuditTrail();

  const apply = (next: Record<string, string>, nextPage = 1) => {
    const query = new URLSearchParams();
    for (const [k, v] of Object.entries(next)) if (v.trim()) query.set(k, v.trim());
    if (nextPage > 1) query.set('page', String(nextPage));
    setParams(query);
  };

  return (
    <Stack>
      <Stack gap={2}>
        <Title order={2}>Trilha de auditoria</Title>
        <Text c="dimmed" size="sm">
          Cada alteração de registros (dispositivos, limites, vínculos, viagens, alarmes, usuários, relatórios) e cada entrada no sistema, com
          autor, data, valores antes e depois, motivo e origem. Os registros são encadeados por hash: nada pode ser alterado sem que a
          verificação acuse.
        </Text>
      </Stack>
      <Paper withBorder radius="md" p="md">
        <form
          onSubmit={(event) => {
            event.preventDefault();
            apply(draft);
          }}
        >
          <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm">
            <Select
              label="Tipo de registro"
              placeholder="Todos"
              clearable
              data={Object.entries(ENTITY_LABELS).map(([v, label]) => ({ value: v, label }))}
              value={draft.entity || null}
              onChange={(entity) => setDraft({ ...draft, entity: entity ?? '' })}
              comboboxProps={{ withinPortal: false }}
            />
            <TextInput label="Registro (identificador)" value={draft.entity_id} onChange={(e) => setDraft({ ...draft, entity_id: e.currentTarget.value })} />
            <TextInput label="Autor" placeholder="Nome ou identificador" value={draft.actor} onChange={(e) => setDraft({ ...draft, actor: e.currentTarget.value })} />
            <TextInput type="date" label="De" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.currentTarget.value })} />
            <TextInput type="date" label="Até" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.currentTarget.value })} />
            <Group align="flex-end" gap="xs">
              <Button type="submit">Filtrar</Button>
              <Button
                variant="default"
                onClick={() => {
                  const empty = Object.fromEntries(FILTER_KEYS.map((k) => [k, ''])) as typeof draft;
                  setDraft(empty);
                  apply(empty);
                }}
              >
                Limpar
              </Button>
            </Group>
          </SimpleGrid>
        </form>
      </Paper>
      <Group justify="space-between" wrap="wrap">
        <Text size="sm" c="dimmed">
          {trail.data ? `${trail.data.total.toLocaleString('pt-BR')} ${trail.data.total === 1 ? 'registro' : 'registros'}` : ''}
        </Text>
        <Group gap="xs" wrap="wrap">
          {/* Signed exports of what the filters show (ADR 0063): a signed PDF, or the CSV with its signature in a ZIP. */}
          <Button
            variant="default"
            leftSection={<IconFileTypePdf size={16} />}
            loading={exporting.isPending && exporting.variables.format === 'pdf'}
            disabled={exporting.isPending}
            onClick={() => exporting.mutate({ format: 'pdf', filters })}
          >
            PDF assinado
          </Button>
          <Button
            variant="default"
            leftSection={<IconFileSpreadsheet size={16} />}
            loading={exporting.isPending && exporting.variables.format === 'csv'}
            disabled={exporting.isPending}
            onClick={() => exporting.mutate({ format: 'csv', filters })}
            title="Um arquivo ZIP com o CSV e a assinatura digital dele (.p7s)"
          >
            CSV assinado
          </Button>
          <Button variant="light" leftSection={<IconShieldCheck size={16} />} loading={verify.isPending} onClick={() => verify.mutate(filters.enterprise_id)}>
            Verificar integridade
          </Button>
        </Group>
      </Group>
      {exporting.isError && <Alert color="red">{errorMessage(exporting.error, 'Não foi possível exportar a trilha.')}</Alert>}
      {verify.data &&
        (verify.data.ok ? (
          <Alert color="teal" icon={<IconShieldCheck />} title="Trilha íntegra" data-testid="verify-result">
            Os {verify.data.entries.toLocaleString('pt-BR')} registros foram recalculados e a cadeia de hashes confere.
          </Alert>
        ) : (
          <Alert color="red" icon={<IconShieldX />} title="Trilha adulterada" data-testid="verify-result">
            A cadeia não confere a partir do registro nº {verify.data.first_bad_seq}: ele foi alterado ou removido fora da aplicação.
          </Alert>
        ))}
      {verify.isError && <Alert color="red">{errorMessage(verify.error, 'Não foi possível verificar a trilha.')}</Alert>}
      {trail.isError ? (
        <RetryAlert message={errorMessage(trail.error, 'Não foi possível carregar a trilha de auditoria.')} onRetry={() => void trail.refetch()} retrying={trail.isFetching} />
      ) : trail.isPending ? (
        <Text c="dimmed">Carregando...</Text>
      ) : trail.data.data.length === 0 ? (
        <Text c="dimmed">Nenhum registro encontrado para estes filtros.</Text>
      ) : (
        <Stack gap="sm">
          {trail.data.data.map((entry) => (
            <EntryCard key={`${entry.chain}-${entry.seq}`} entry={entry} />
          ))}
          {trail.data.total > trail.data.limit && (
            <Pagination total={Math.ceil(trail.data.total / trail.data.limit)} value={page} onChange={(next) => apply(Object.fromEntries(FILTER_KEYS.map((k) => [k, value(k)])), next)} />
          )}
        </Stack>
      )}
    </Stack>
  );
}

function actorText(entry: AuditEntry): string {
  const kind = ACTOR_TYPE_LABELS[entry.actor.type] ?? entry.actor.type;
  if (entry.actor.type === 'user') return `${entry.actor.name ?? ''}${entry.actor.username ? ` (${entry.actor.username})` : ''}`;
  return entry.actor.name ? `${kind}: ${entry.actor.name}` : kind;
}

/** One entry: what, by whom, when, why, from where; then the changed fields, before and after side by side. */
function EntryCard({ entry }: { entry: AuditEntry }) {
  const keys = [...new Set([...Object.keys(entry.before ?? {}), ...Object.keys(entry.after ?? {})])].filter((k) => !(entry.action === 'create' && entry.after?.[k] === null));
  const client = [entry.client.client, entry.client.clientVersion, entry.client.clientOs].filter(Boolean).join(' ');
  return (
    <Paper withBorder radius="md" p="sm" data-testid="audit-entry">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Group gap="xs" wrap="wrap">
          <Badge variant="light" color={entry.action === 'delete' || entry.action.endsWith('failed') ? 'red' : entry.action === 'create' ? 'teal' : 'blue'}>
            {ACTION_LABELS[entry.action] ?? entry.action}
          </Badge>
          <Text fw={600} size="sm">
            {ENTITY_LABELS[entry.entity] ?? entry.entity}
          </Text>
          {entry.enterprise && (
            <Text size="xs" c="dimmed">
              {entry.enterprise.name}
            </Text>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          nº {entry.seq} · {formatDateTime(entry.at)}
        </Text>
      </Group>
      <Text size="sm" mt={4}>
        Por {actorText(entry)}
      </Text>
      {entry.reason && (
        <Text size="sm" mt={2}>
          <b>Motivo:</b> {entry.reason}
        </Text>
      )}
      <Text size="xs" c="dimmed" mt={2}>
        {[entry.client.address && `IP ${entry.client.address}`, client, entry.client.userAgent].filter(Boolean).join(' · ') || 'Origem: servidor'}
        {entry.entity_id ? ` · Registro ${entry.entity_id}` : ''}
      </Text>
      {keys.length > 0 && (
        <Table.ScrollContainer minWidth={320} mt="xs" type="native">
          <Table withTableBorder withColumnBorders striped fz="xs" verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Campo</Table.Th>
                <Table.Th>Antes</Table.Th>
                <Table.Th>Depois</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {keys.map((key) => (
                <Table.Tr key={key}>
                  <Table.Td>{fieldLabel(key)}</Table.Td>
                  <Table.Td>{entry.before ? formatValue(key, entry.before[key]) : '—'}</Table.Td>
                  <Table.Td>{entry.after ? formatValue(key, entry.after[key]) : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="xs" c="dimmed" mt={4} style={{ wordBreak: 'break-all' }} title="SHA-256 deste registro, encadeado ao anterior">
        hash {entry.hash}
      </Text>
    </Paper>
  );
}
