import { Alert, Button, Center, Group, Loader, Modal, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { formatBRL, invoiceLine, MSG, type Invoice } from '@sentinela/contract';
import { IconAlertCircle, IconDownload } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { invoiceDetailQueryOptions } from '../../../components/PixPayment';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY, formatDate, formatDateTime } from '../../../lib/format';
import { useDownloadInvoicePdf } from '../api/invoice-pdf';
import { useMarkPaid } from '../api/mark-paid';
import { InvoiceStatusBadge } from './InvoiceStatusBadge';

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" component="div" style={{ wordBreak: 'break-word' }}>
        {children}
      </Text>
    </div>
  );
}

interface InvoiceDetailModalProps {
  invoice: Invoice | null;
  onClose: () => void;
  onPay: (invoice: Invoice) => void;
  /** The super admin may settle it by hand, with a reason. */
  canMarkPaid: boolean;
}

/** One invoice: number, period, plan, due date, status, its payment when paid, and its signed PDF. */
export function InvoiceDetailModal({ invoice, onClose, onPay, canMarkPaid }: InvoiceDetailModalProps) {
  return (
    <Modal
      opened={invoice !== null}
      onClose={onClose}
      title={invoice ? `Fatura nº ${invoice.number}` : ''}
      size="lg"
      closeOnClickOutside={false}
      closeOnEscape={false}
      centered
    >
      {invoice && <InvoiceDetail key={invoice.id} invoice={invoice} onClose={onClose} onPay={onPay} canMarkPaid={canMarkPaid} />}
    </Modal>
  );
}

function InvoiceDetail({ invoice: listed, onClose, onPay, canMarkPaid }: Omit<InvoiceDetailModalProps, 'invoice'> & { invoice: Invoice }) {
  const detail = useQuery(invoiceDetailQueryOptions(listed.id));
  const pdf = useDownloadInvoicePdf();
  const markPaid = useMarkPaid();
  const [reason, setReason] = useState<string | null>(null);

  if (detail.isPending) {
    return (
      <Center py="lg">
        <Loader aria-label="Carregando..." />
      </Center>
    );
  }
  if (detail.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(detail.error, 'Não foi possível carregar a fatura.')}
      </Alert>
    );
  }
  const invoice = detail.data;
  const payment = invoice.payment;

  const download = () =>
    pdf.mutate(invoice, {
      onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível baixar o PDF da fatura.') }),
    });
  const settle = () =>
    markPaid.mutate(
      { id: invoice.id, reason: reason ?? '' },
      {
        onSuccess: () => {
          setReason(null);
          void detail.refetch();
          notifications.show({ color: 'teal', title: MSG.successTitle, message: `Fatura nº ${invoice.number} marcada como paga.` });
        },
      },
    );

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="xs" data-testid="invoice-detail">
        <Detail label="Empresa">{invoice.enterprise.name}</Detail>
        <Detail label="Situação">
          <InvoiceStatusBadge status={invoice.status} />
        </Detail>
        <Detail label="Emissão">{formatDate(invoice.data)}</Detail>
        <Detail label="Vencimento">{formatDate(invoice.due_at)}</Detail>
        <Detail label="Período">
          {formatDate(invoice.period_start)} a {formatDate(invoice.period_end)}
        </Detail>
        <Detail label="Plano">
          {invoice.plan.name} ({invoice.modo})
        </Detail>
        <Detail label="Valor">{formatBRL(invoice.valor)}</Detail>
        <ChargedLine invoice={invoice} />
        <Detail label="Método">{invoice.metodo}</Detail>
        <Detail label="Transação (txid)">
          <Text span ff="monospace" size="sm">
            {invoice.transacao}
          </Text>
        </Detail>
        {invoice.status === 'paid' && <Detail label="Pago em">{invoice.paid_at ? formatDateTime(invoice.paid_at) : EMPTY}</Detail>}
        {payment?.end_to_end_id && (
          <Detail label="Identificador do PIX (endToEndId)">
            <Text span ff="monospace" size="sm">
              {payment.end_to_end_id}
            </Text>
          </Detail>
        )}
        {payment?.marked_by && <Detail label="Baixa manual por">{payment.marked_by.name}</Detail>}
        {payment?.reason && <Detail label="Motivo">{payment.reason}</Detail>}
      </SimpleGrid>

      {canMarkPaid && invoice.pending && reason !== null && (
        <Stack gap="xs">
          <Textarea
            label="Motivo da baixa manual"
            description="Por exemplo: transferência identificada no extrato de 10/11."
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            maxLength={500}
            rows={3}
            error={markPaid.isError ? errorMessage(markPaid.error, 'Não foi possível marcar a fatura como paga.') : undefined}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setReason(null)} disabled={markPaid.isPending}>
              Cancelar
            </Button>
            <Button color="teal" onClick={settle} loading={markPaid.isPending}>
              Confirmar pagamento
            </Button>
          </Group>
        </Stack>
      )}

      <Group justify="space-between" gap="xs">
        <Group gap="xs">
          <Button variant="light" leftSection={<IconDownload size={16} />} onClick={download} loading={pdf.isPending}>
            Baixar PDF
          </Button>
          {invoice.pending && <Button onClick={() => onPay(invoice)}>Pagar Fatura</Button>}
          {canMarkPaid && invoice.pending && reason === null && (
            <Button variant="subtle" color="teal" onClick={() => setReason('')}>
              Marcar como paga
            </Button>
          )}
        </Group>
        <Button variant="default" onClick={onClose}>
          Fechar
        </Button>
      </Group>
    </Stack>
  );
}

/** What the invoice charges, across the grid: a pro-rated upgrade says so, with the full price for reference (ADR 75). */
function ChargedLine({ invoice }: { invoice: Invoice }) {
  const line = invoiceLine(invoice, formatDate);
  return (
    <div style={{ gridColumn: '1 / -1' }} data-testid="invoice-line">
      <Text size="xs" c="dimmed" fw={600}>
        {line.kindLabel}
      </Text>
      <Text size="sm">{line.description}</Text>
      {line.reference && (
        <Text size="xs" c="dimmed" mt={2}>
          {line.reference}
        </Text>
      )}
    </div>
  );
}
