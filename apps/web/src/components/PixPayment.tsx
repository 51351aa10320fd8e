import { Alert, Button, Center, Group, Image, Loader, Stack, Text, Textarea } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { formatBRL, InvoiceDetail, InvoicePix } from '@sentinela/contract';
import { IconAlertCircle, IconCheck, IconCircleCheck, IconCopy } from '@tabler/icons-react';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { LoadingBlock, RetryAlert } from './QueryStatus';
import { apiRequest, errorMessage } from '../lib/api-client';
import { dayjs } from '../lib/dayjs';

/** Query keys of invoices: every screen that shows one refreshes under `invoiceKeys.all`. */
export const invoiceKeys = {
  all: ['invoices'] as const,
  detail: (id: string) => ['invoices', 'detail', id] as const,
  pix: (id: string) => ['invoices', 'pix', id] as const,
};

/** GET /api/invoices/{id}: one invoice within the caller's reach. */
export function invoiceDetailQueryOptions(id: string) {
  return queryOptions({
    queryKey: invoiceKeys.detail(id),
    queryFn: ({ signal }) => apiRequest(`/api/invoices/${encodeURIComponent(id)}`, { schema: InvoiceDetail, signal }),
  });
}

/** GET /api/invoices/{id}/pix: the "copia e cola" code and its QR code. */
export function invoicePixQueryOptions(id: string) {
  return queryOptions({
    queryKey: invoiceKeys.pix(id),
    queryFn: ({ signal }) => apiRequest(`/api/invoices/${encodeURIComponent(id)}/pix`, { schema: InvoicePix, signal }),
    // The code of an invoice never changes while it is open: no need to fetch it again while the modal polls.
    staleTime: Infinity,
  });
}

/** How often an open invoice is asked again while its PIX is shown (the PSP's webhook pays it on the server). */
export const PIX_PAYMENT_POLL_MS = 4000;

const localDate = (iso: string) => dayjs.utc(iso).local().format('DD/MM/YYYY');
const localDateTime = (iso: string) => dayjs.utc(iso).local().format('DD/MM/YYYY HH:mm:ss');

interface PixPaymentProps {
  invoiceId: string;
  /** Called once when the invoice is seen paid (after the PSP's webhook, or marked paid by hand). */
  onPaid?: (invoice: InvoiceDetail) => void;
  /** Polling interval while the invoice is open; tests may shorten it. */
  pollIntervalMs?: number;
}

/**
 * Payment of one invoice by PIX (issue 13 item 3): its amount, the QR code and the "copia e cola" code with a copy
 * button. While it is shown, the invoice is asked again every few seconds: once the PSP's webhook has paid it, this
 * says so, calls `onPaid` and refreshes every invoice list (ADR 30). Self-contained: it needs only the invoice id.
 */
export function PixPayment({ invoiceId, onPaid, pollIntervalMs = PIX_PAYMENT_POLL_MS }: PixPaymentProps) {
  const queryClient = useQueryClient();
  const invoice = useQuery({
    ...invoiceDetailQueryOptions(invoiceId),
    refetchInterval: (query) => (query.state.data && !query.state.data.pending ? false : pollIntervalMs),
  });
  const payable = invoice.data?.pending === true;
  const pix = useQuery({ ...invoicePixQueryOptions(invoiceId), enabled: payable });
  const clipboard = useClipboard({ timeout: 2500 });

  const paid = invoice.data?.status === 'paid' ? invoice.data : null;
  const announced = useRef(false);
  useEffect(() => {
    if (!paid || announced.current) return;
    announced.current = true;
    void queryClient.invalidateQueries({ queryKey: invoiceKeys.all, predicate: (q) => q.queryKey[1] !== 'detail' });
    onPaid?.(paid);
  }, [paid, onPaid, queryClient]);

  if (invoice.isPending) {
    return <LoadingBlock />;
  }
  if (invoice.isError) {
    return <RetryAlert stacked message={errorMessage(invoice.error, 'Não foi possível carregar a fatura.')} onRetry={() => void invoice.refetch()} retrying={invoice.isFetching} />;
  }

  const data = invoice.data;
  if (paid) {
    return (
      <Alert color="teal" title="Pagamento confirmado" icon={<IconCircleCheck />} data-testid="pix-paid">
        Fatura nº {paid.number} de {formatBRL(paid.valor)} paga{paid.paid_at ? ` em ${localDateTime(paid.paid_at)}` : ''}. Obrigado!
      </Alert>
    );
  }
  if (!payable) {
    return (
      <Alert color="gray" title="Nada a pagar" icon={<IconAlertCircle />}>
        Esta fatura foi cancelada.
      </Alert>
    );
  }

  return (
    <Stack gap="sm" data-testid="pix-payment">
      <Stack gap={0} align="center">
        <Text size="sm" c="dimmed">
          Fatura nº {data.number} · vencimento {localDate(data.due_at)}
        </Text>
        <Text fz={28} fw={700} data-testid="pix-amount">
          {formatBRL(data.valor)}
        </Text>
      </Stack>
      {pix.isPending ? (
        <LoadingBlock label="Gerando código PIX..." />
      ) : pix.isError ? (
        <RetryAlert stacked message={errorMessage(pix.error, 'Não foi possível gerar o código PIX.')} onRetry={() => void pix.refetch()} retrying={pix.isFetching} />
      ) : (
        <>
          <Text size="sm" ta="center">
            Abra o aplicativo do seu banco, escolha pagar com PIX e leia o QR Code ou use o código copia e cola.
          </Text>
          <Center>
            <Image src={pix.data.qrcode} alt={`QR Code PIX da fatura nº ${data.number}`} w={240} h={240} fit="contain" />
          </Center>
          <Textarea
            label="PIX copia e cola"
            value={pix.data.brcode}
            readOnly
            rows={4}
            styles={{ input: { fontFamily: 'monospace', fontSize: 12, wordBreak: 'break-all' } }}
            onFocus={(event) => event.currentTarget.select()}
            data-testid="pix-brcode"
          />
          <Button
            leftSection={clipboard.copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
            color={clipboard.copied ? 'teal' : undefined}
            onClick={() => clipboard.copy(pix.data.brcode)}
          >
            {clipboard.copied ? 'Código copiado!' : 'Copiar código'}
          </Button>
          {clipboard.error && (
            <Text size="sm" c="red">
              Não foi possível copiar automaticamente: selecione o código acima e copie-o.
            </Text>
          )}
          <Group gap="xs" justify="center">
            <Loader size="xs" aria-hidden />
            <Text size="sm" c="dimmed">
              Aguardando a confirmação do pagamento...
            </Text>
          </Group>
        </>
      )}
    </Stack>
  );
}
