import { Alert, Badge, Button, Card, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, WEBHOOK_EVENT_NAMES, type Webhook } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useDeleteWebhook, useTestWebhook, useUpdateWebhook, useWebhooks } from '../api/webhooks';
import { CreateWebhookModal } from './CreateWebhookModal';
import { DeliveryLogModal } from './DeliveryLogModal';

/** Webhooks: the enterprise's receivers, each with its events, state, and buttons to test, see deliveries, switch, delete. */
export function WebhooksPanel() {
  const webhooks = useWebhooks();
  const test = useTestWebhook();
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const [creating, setCreating] = useState(false);
  const [logOf, setLogOf] = useState<Webhook | null>(null);
  const [target, setTarget] = useState<Webhook | null>(null);
  const [deleting, setDeleting] = useState(false);

  const failed = (fallback: string) => (error: unknown) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, fallback) });
  const sendTest = (w: Webhook) =>
    test.mutate(w._id, {
      onSuccess: () => {
        notifications.show({ color: 'teal', title: MSG.successTitle, message: 'Evento de teste enviado. Acompanhe o resultado nas entregas.' });
        setLogOf(w);
      },
      onError: failed('Não foi possível enviar o teste.'),
    });
  const setEnabled = (w: Webhook, enabled: boolean) =>
    update.mutate(
      { id: w._id, body: { enabled } },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: enabled ? 'Webhook ativado.' : 'Webhook desativado.' }),
        onError: failed('Não foi possível alterar o webhook.'),
      },
    );
  const confirmDelete = () => {
    if (!target) return;
    remove.mutate(target._id, {
      onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: 'Webhook excluído.' }),
      onError: failed('Não foi possível excluir o webhook.'),
      onSettled: () => setDeleting(false),
    });
  };

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 20rem' }}>
          Cada evento escolhido é enviado por POST em JSON, assinado conforme o padrão Standard Webhooks com o segredo do webhook
          (mostrado só ao criar). Sem resposta 2xx, a entrega é repetida por até 28 horas com o mesmo webhook-id.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Novo webhook
        </Button>
      </Group>
      {webhooks.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(webhooks.error, 'Não foi possível carregar os webhooks.')}
        </Alert>
      )}
      {webhooks.isPending && !webhooks.isError && (
        <Center py="md">
          <Loader size="sm" aria-label="Carregando..." />
        </Center>
      )}
      {webhooks.data?.length === 0 && (
        <Text c="dimmed" ta="center" py="md">
          Nenhum webhook cadastrado
        </Text>
      )}
      {webhooks.data?.map((w) => (
        <Card key={w._id} withBorder padding="md" data-testid="webhook-card">
          <Stack gap="xs">
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
              <Stack gap={2} style={{ minWidth: 0 }}>
                <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {w.url}
                </Text>
                {w.description && (
                  <Text size="sm" c="dimmed">
                    {w.description}
                  </Text>
                )}
              </Stack>
              <Badge color={w.enabled ? (w.failing_since ? 'orange' : 'teal') : 'gray'} variant="light" style={{ minWidth: 'max-content' }}>
                {w.enabled ? (w.failing_since ? 'Falhando' : 'Ativo') : 'Desativado'}
              </Badge>
            </Group>
            <Group gap={4}>
              {w.events.map((event) => (
                <Badge key={event} variant="outline" color="gray" size="sm" title={WEBHOOK_EVENT_NAMES[event]} style={{ textTransform: 'none' }}>
                  {event}
                </Badge>
              ))}
            </Group>
            {!w.enabled && w.disabled_reason && (
              <Alert color="gray" p="xs" icon={<IconAlertCircle size={16} />}>
                {w.disabled_reason}
              </Alert>
            )}
            <Text size="xs" c="dimmed">
              Criado em {formatDateTime(w.created_at)}
              {w.created_by ? ` por ${w.created_by.name}` : ''} · Última entrega com sucesso: {w.last_success_at ? formatDateTime(w.last_success_at) : 'nenhuma'}
              {w.failing_since ? ` · Falhando desde ${formatDateTime(w.failing_since)}` : ''}
            </Text>
            <Group gap="xs" justify="flex-end">
              <Button size="xs" variant="default" onClick={() => setLogOf(w)}>
                Entregas
              </Button>
              <Button size="xs" variant="default" onClick={() => sendTest(w)} disabled={!w.enabled} loading={test.isPending && test.variables === w._id}>
                Testar
              </Button>
              <Button size="xs" variant="default" onClick={() => setEnabled(w, !w.enabled)} loading={update.isPending && update.variables?.id === w._id}>
                {w.enabled ? 'Desativar' : 'Ativar'}
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                onClick={() => {
                  setTarget(w);
                  setDeleting(true);
                }}
              >
                Excluir
              </Button>
            </Group>
          </Stack>
        </Card>
      ))}
      <CreateWebhookModal opened={creating} onClose={() => setCreating(false)} />
      <DeliveryLogModal webhook={logOf} onClose={() => setLogOf(null)} />
      <ConfirmModal
        opened={deleting}
        title="Excluir webhook"
        confirmLabel="Excluir"
        danger
        loading={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(false)}
      >
        {`Deseja excluir o webhook ${target?.url ?? ''}? Ele deixa de receber eventos e o registro de entregas é apagado.`}
      </ConfirmModal>
    </Stack>
  );
}
