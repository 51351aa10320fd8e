import { Alert, Badge, Button, Card, Center, Code, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { MSG, WEBHOOK_EVENT_NAMES, type Webhook, type WebhookDelivery, type WebhookDeliveryEvent } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, PHONE_QUERY, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { useRedeliver, useWebhookDeliveries } from '../api/webhooks';

const STATUS = {
  pending: { label: 'Pendente', color: 'blue' },
  succeeded: { label: 'Entregue', color: 'teal' },
  failed: { label: 'Falhou', color: 'red' },
} as const;

const eventName = (event: string) => WEBHOOK_EVENT_NAMES[event as WebhookDeliveryEvent] ?? event;
const code = (d: { response_code: number | null }) => (d.response_code === null ? 'sem resposta' : String(d.response_code));

/** One delivery's attempts and the body it sends, under its row. */
function Attempts({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Stack gap="xs" py="xs">
      <Text size="xs" c="dimmed">
        webhook-id <Code>{delivery.message_id}</Code>
      </Text>
      {delivery.attempts.length === 0 && <Text size="sm">Nenhuma tentativa ainda.</Text>}
      {delivery.attempts.map((a) => (
        <Text key={a.attempt} size="sm">
          Tentativa {a.attempt}
          {a.manual ? ' (manual)' : ''} · {formatDateTime(a.at)} · {code(a)} · {formatInteger(a.duration_ms)} ms
          {a.error ? ` · ${a.error}` : ''}
        </Text>
      ))}
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 200, overflow: 'auto' }}>
        {delivery.payload}
      </Code>
    </Stack>
  );
}

function StatusBadge({ delivery }: { delivery: WebhookDelivery }) {
  return (
    <Badge color={STATUS[delivery.status].color} variant="light" style={{ minWidth: 'max-content' }}>
      {STATUS[delivery.status].label}
    </Badge>
  );
}

const nextAttempt = (d: WebhookDelivery) => (d.status === 'pending' && d.next_attempt_at && d.attempt > 0 ? formatDateTime(d.next_attempt_at) : '--');

/** On phones: a card per delivery, its attempts behind "Detalhes", instead of a table that scrolls sideways. */
function DeliveryCard({ delivery, resendButton }: { delivery: WebhookDelivery; resendButton: React.ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <Card withBorder padding="sm" data-testid="delivery-card">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Text fw={600}>{eventName(delivery.event)}</Text>
          <StatusBadge delivery={delivery} />
        </Group>
        <Text size="xs" c="dimmed">
          {formatDateTime(delivery.created_at)} · Tentativa {formatInteger(delivery.attempt)}
          {delivery.attempt > 0 ? ` · ${code(delivery)}` : ''}
          {delivery.duration_ms !== null ? ` · ${formatInteger(delivery.duration_ms)} ms` : ''}
          {nextAttempt(delivery) !== '--' ? ` · Próxima: ${nextAttempt(delivery)}` : ''}
        </Text>
        {delivery.error && <Text size="xs">{delivery.error}</Text>}
        {open && <Attempts delivery={delivery} />}
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="subtle" onClick={() => setOpen(!open)} aria-expanded={open}>
            {open ? 'Ocultar detalhes' : 'Detalhes'}
          </Button>
          {resendButton}
        </Group>
      </Stack>
    </Card>
  );
}

/** Registro de entregas: the webhook's newest deliveries, refreshed while one is pending, with Reenviar. */
export function DeliveryLogModal({ webhook, onClose }: { webhook: Webhook | null; onClose: () => void }) {
  const deliveries = useWebhookDeliveries(webhook?._id ?? null);
  const redeliver = useRedeliver();
  const phone = useMediaQuery(PHONE_QUERY) ?? false;

  const resend = (d: WebhookDelivery) => {
    if (!webhook) return;
    redeliver.mutate(
      { id: webhook._id, deliveryId: d._id },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: 'Entrega reenviada.' }),
        onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível reenviar.') }),
      },
    );
  };

  const columns: DataTableColumn<WebhookDelivery>[] = [
    { key: 'event', header: 'Evento', render: (d) => eventName(d.event) },
    { key: 'created_at', header: 'Criada em', render: (d) => <NoWrap>{formatDateTime(d.created_at)}</NoWrap>, sortValue: (d) => Date.parse(d.created_at) },
    { key: 'status', header: 'Status', render: (d) => <StatusBadge delivery={d} /> },
    { key: 'code', header: 'Código', render: (d) => (d.attempt === 0 ? '--' : code(d)) },
    { key: 'duration', header: 'Duração', render: (d) => (d.duration_ms === null ? '--' : <NoWrap>{formatInteger(d.duration_ms)} ms</NoWrap>) },
    { key: 'attempt', header: 'Tentativa', render: (d) => formatInteger(d.attempt) },
    { key: 'next', header: 'Próxima tentativa', render: (d) => <NoWrap>{nextAttempt(d)}</NoWrap> },
    { key: 'actions', header: 'Ações', render: (d) => resendButton(d) },
  ];
  function resendButton(d: WebhookDelivery) {
    return (
      <Button
        size="xs"
        variant="default"
        disabled={d.status === 'pending' || !webhook?.enabled}
        loading={redeliver.isPending && redeliver.variables?.deliveryId === d._id}
        onClick={() => resend(d)}
      >
        Reenviar
      </Button>
    );
  }
  const empty = deliveries.isError ? 'Não foi possível carregar as entregas.' : 'Nenhuma entrega ainda';

  return (
    <Modal opened={webhook !== null} onClose={onClose} title="Registro de entregas" size="90rem" centered fullScreen={phone}>
      <Stack>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {webhook?.url}
        </Text>
        {deliveries.isError && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {errorMessage(deliveries.error, 'Não foi possível carregar as entregas.')}
          </Alert>
        )}
        {phone ? (
          <Stack gap="sm">
            {deliveries.isPending && !deliveries.isError && (
              <Center py="md">
                <Loader size="sm" aria-label="Carregando..." />
              </Center>
            )}
            {deliveries.data?.length === 0 || deliveries.isError ? (
              <Text c="dimmed" ta="center" py="md">
                {empty}
              </Text>
            ) : null}
            {deliveries.data?.map((d) => <DeliveryCard key={d._id} delivery={d} resendButton={resendButton(d)} />)}
          </Stack>
        ) : (
          <DataTable
            rows={deliveries.data ?? []}
            columns={columns}
            rowKey={(d) => d._id}
            emptyText={empty}
            loading={deliveries.isPending && !deliveries.isError}
            expandedContent={(d) => <Attempts delivery={d} />}
          />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Fechar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
