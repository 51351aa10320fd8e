import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Table.css';
import { Alert, Badge, Button, Card, Group, Pagination, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import { formatBRL, invoiceLine, type Invoice } from '@sentinela/contract';
import { IconAlertCircle, IconSearch } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { NoWrap } from '../../../components/NoWrap';
import { LoadingBlock, RetryAlert } from '../../../components/QueryStatus';
import { errorMessage } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { INVOICES_PAGE_SIZE, useInvoices } from '../api/list-invoices';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';

export const EMPTY_INVOICES = 'Nenhum registro de faturas.';

interface InvoicesTabProps {
  /** The super admin's chosen enterprise, or null for every enterprise (others: ignored, the server scopes). */
  enterpriseId: string | null;
  /** Shows the Empresa column (the super admin's list of every enterprise). */
  showEnterprise: boolean;
  /**
   * Warns of the listed enterprise's overdue/restricted subscription: for the super admin, who has no banner of their
   * own. The enterprise's users already have the shell's banner above every screen (ADR 39).
   */
  showStanding: boolean;
  search: string;
  page: number;
  onSearchChange: (search: string) => void;
  onPageChange: (page: number) => void;
  onOpen: (invoice: Invoice) => void;
  onPay: (invoice: Invoice) => void;
}

/** Faturas: the invoices, searched and paged by the server; "Pagar Fatura" only on those still to pay. */
export function InvoicesTab({ enterpriseId, showEnterprise, showStanding, search, page, onSearchChange, onPageChange, onOpen, onPay }: InvoicesTabProps) {
  const [typed, setTyped] = useState(search);
  const [debounced] = useDebouncedValue(typed, 300);
  useEffect(() => {
    if (debounced !== search) onSearchChange(debounced);
  }, [debounced, search, onSearchChange]);

  const invoices = useInvoices({ enterpriseId, search, page });
  const phone = useMediaQuery('(max-width: 48em)');
  const rows = invoices.data?.data ?? [];
  const total = invoices.data?.total ?? 0;
  const totalPages = Math.max(1, Math.ceil(total / INVOICES_PAGE_SIZE));
  const subscription = showStanding ? invoices.data?.subscription : undefined;

  const actions = (invoice: Invoice) => (
    <Group gap={6} wrap="nowrap">
      <Button size="compact-sm" variant="light" onClick={() => onOpen(invoice)} aria-label={`Detalhes da fatura nº ${invoice.number}`}>
        Detalhes
      </Button>
      {invoice.pending && (
        <Button size="compact-sm" onClick={() => onPay(invoice)}>
          Pagar Fatura
        </Button>
      )}
    </Group>
  );

  const columns = ['Nº', 'Data', ...(showEnterprise ? ['Empresa'] : []), 'Plano', 'Modo', 'Vencimento', 'Valor', 'Método', 'Situação', 'Ações'];

  let body;
  if (invoices.isPending) {
    body = <LoadingBlock />;
  } else if (invoices.isError) {
    body = <RetryAlert message={errorMessage(invoices.error, 'Não foi possível carregar as faturas.')} onRetry={() => void invoices.refetch()} retrying={invoices.isFetching} />;
  } else if (rows.length === 0) {
    body = (
      <Text ta="center" c="dimmed" py="lg" data-testid="invoices-empty">
        {EMPTY_INVOICES}
      </Text>
    );
  } else if (phone) {
    body = (
      <Stack gap="sm" style={{ opacity: invoices.isPlaceholderData ? 0.6 : 1 }}>
        {rows.map((invoice) => (
          <Card key={invoice.id} withBorder radius="md" padding="sm" data-testid="invoice-card">
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <Stack gap={0}>
                <Text fw={600}>Fatura nº {invoice.number}</Text>
                <Text size="sm" c="dimmed">
                  {showEnterprise ? `${invoice.enterprise.name} · ` : ''}
                  {invoice.plan.name} ({invoice.modo})
                </Text>
                <ProrationBadge invoice={invoice} />
              </Stack>
              <InvoiceStatusBadge status={invoice.status} />
            </Group>
            <Group justify="space-between" mt="xs" align="flex-end">
              <Stack gap={0}>
                <Text fz="lg" fw={700}>
                  {formatBRL(invoice.valor)}
                </Text>
                <Text size="xs" c="dimmed">
                  Emitida em {formatDate(invoice.data)} · vence em {formatDate(invoice.due_at)}
                </Text>
              </Stack>
              {actions(invoice)}
            </Group>
          </Card>
        ))}
      </Stack>
    );
  } else {
    body = (
      <ScrollArea type="auto">
        <Table highlightOnHover highlightOnHoverColor="teal.0" verticalSpacing="xs" style={{ opacity: invoices.isPlaceholderData ? 0.6 : 1 }}>
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((invoice) => (
              <Table.Tr key={invoice.id}>
                <Table.Td>{invoice.number}</Table.Td>
                <Table.Td>{formatDate(invoice.data)}</Table.Td>
                {showEnterprise && <Table.Td>{invoice.enterprise.name}</Table.Td>}
                <Table.Td>
                  {invoice.plan.name}
                  <ProrationBadge invoice={invoice} ml={6} />
                </Table.Td>
                <Table.Td>{invoice.modo}</Table.Td>
                <Table.Td>{formatDate(invoice.due_at)}</Table.Td>
                <Table.Td>
                  <NoWrap>{formatBRL(invoice.valor)}</NoWrap>
                </Table.Td>
                <Table.Td>{invoice.metodo}</Table.Td>
                <Table.Td>
                  <InvoiceStatusBadge status={invoice.status} />
                </Table.Td>
                <Table.Td>{actions(invoice)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    );
  }

  return (
    <Stack gap="sm">
      {subscription?.restricted_at ? (
        <Alert color="red" title="Acesso restrito" icon={<IconAlertCircle />}>
          Uma fatura está vencida além do prazo de tolerância. Pague-a para restabelecer o acesso; nenhum dado foi apagado.
        </Alert>
      ) : subscription?.status === 'overdue' ? (
        <Alert color="yellow" title="Fatura vencida" icon={<IconAlertCircle />}>
          Há uma fatura vencida. Pague-a para evitar a restrição do acesso.
        </Alert>
      ) : null}
      <TextInput
        placeholder="Pesquisar Faturas"
        aria-label="Pesquisar Faturas"
        leftSection={<IconSearch size={16} />}
        value={typed}
        onChange={(event) => setTyped(event.currentTarget.value)}
        maw={360}
        maxLength={100}
      />
      {body}
      {!invoices.isError && totalPages > 1 && (
        <Group justify="flex-end">
          <Pagination total={totalPages} value={Math.min(page, totalPages)} onChange={onPageChange} size="sm" siblings={1} />
        </Group>
      )}
    </Stack>
  );
}

/** A pro-rated upgrade's invoice is marked as such, its line in the tooltip (it must not read as the full plan). */
function ProrationBadge({ invoice, ml }: { invoice: Invoice; ml?: number }) {
  if (invoice.kind !== 'proration') return null;
  const line = invoiceLine(invoice, formatDate);
  return (
    <Badge size="xs" variant="light" color="grape" title={`${line.description}. ${line.reference ?? ''}`} w="fit-content" ml={ml}>
      Pró-rata
    </Badge>
  );
}
