import { Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { formatBRL, isMonthlyCycle, type Subscription } from '@sentinela/contract';
import { formatDay } from '../../../lib/subscription';

const STATUS: Record<Subscription['status'], { label: string; color: string }> = {
  trial: { label: 'Em teste', color: 'blue' },
  active: { label: 'Ativa', color: 'teal' },
  overdue: { label: 'Pagamento em atraso', color: 'yellow' },
  cancelled: { label: 'Cancelada', color: 'gray' },
};

/** /plans, for the enterprise's administrators: the plan it has, its period, and a change waiting for the next cycle. */
export function SubscriptionPanel({ subscription, onCancelPending, cancelling }: { subscription: Subscription; onCancelPending: () => void; cancelling: boolean }) {
  const { current, period, pending_change: pending } = subscription;
  const status = subscription.restricted_at ? { label: 'Restrita', color: 'red' } : STATUS[subscription.status];
  return (
    <Card withBorder radius="md" padding="lg" data-testid="subscription-panel">
      <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Title order={4}>Sua assinatura</Title>
          <Text>
            <b>{current.plan_name}</b> — {current.cicle_name}: {formatBRL(current.value_cents)}
            {isMonthlyCycle(current.cicle_name) ? '/mês' : '/ano'}
          </Text>
          {period && (
            <Text size="sm" c="dimmed">
              Período atual: {formatDay(period.start)} a {formatDay(period.end)}
            </Text>
          )}
        </Stack>
        <Badge color={status.color} size="lg" variant="light">
          {status.label}
        </Badge>
      </Group>
      {pending && (
        <Group mt="sm" justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            Troca agendada: <b>{pending.plan_name}</b> — {pending.cicle_name} ({formatBRL(pending.value_cents)}
            {isMonthlyCycle(pending.cicle_name) ? '/mês' : '/ano'}), a partir de {pending.starts_at ? formatDay(pending.starts_at) : 'o próximo ciclo'}.
          </Text>
          <Button size="xs" variant="default" onClick={onCancelPending} loading={cancelling}>
            Cancelar troca
          </Button>
        </Group>
      )}
    </Card>
  );
}
