import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { MSG, formatBRL, isMonthlyCycle } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PixPayment } from '../../../components/PixPayment';
import { errorMessage } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { useIsEnterpriseAdmin } from '../../../lib/registration';
import { formatDay, useRefreshAfterPayment, useSubscription } from '../../../lib/subscription';

/**
 * Step 3 (A4, issue 13 item 6): the plan chosen at sign-up and its first invoice, payable right here by PIX (code,
 * copy button, QR). The invoice is issued at sign-up (ADR 32), so it is here on the first visit.
 */
export function PlanSummaryStep({ onBack }: { onBack: () => void }) {
  const admin = useIsEnterpriseAdmin();
  const subscription = useSubscription(admin);
  const refreshAfterPayment = useRefreshAfterPayment();
  const footer = (hasPlan: boolean) => (
    <Group justify="space-between">
      <Button variant="default" onClick={onBack}>
        Voltar
      </Button>
      <Group gap="xs">
        <Button component={Link} to={paths.plans} variant="light">
          {hasPlan ? 'Trocar plano' : 'Escolher plano'}
        </Button>
        <Button component={Link} to={paths.myDevices}>
          Concluir
        </Button>
      </Group>
    </Group>
  );
  if (!admin) {
    return (
      <Stack mt="md">
        <Text c="dimmed">O plano e as faturas da empresa são tratados pelos administradores dela.</Text>
        {footer(false)}
      </Stack>
    );
  }
  if (subscription.isPending) return <Loader aria-label="Carregando" />;
  if (subscription.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(subscription.error, MSG.internalError)}
      </Alert>
    );
  }
  const sub = subscription.data;
  const invoice = sub?.open_invoice;
  return (
    <Stack mt="md">
      <Card withBorder radius="md" padding="lg">
        <Title order={4} mb="xs">
          Resumo do plano
        </Title>
        {sub ? (
          <Stack gap={4}>
            <Text fw={600}>
              {sub.current.plan_name} — {sub.current.cicle_name}
            </Text>
            <Text fz={24} fw={700}>
              {formatBRL(sub.current.value_cents)}
              <Text span c="dimmed" fz="md">
                {isMonthlyCycle(sub.current.cicle_name) ? '/mês' : '/ano'}
              </Text>
            </Text>
            {sub.pending_change && (
              <Text size="sm">
                Troca agendada: {sub.pending_change.plan_name} — {sub.pending_change.cicle_name}, a partir do próximo ciclo.
              </Text>
            )}
          </Stack>
        ) : (
          <Text c="dimmed">Sua empresa ainda não escolheu um plano. Escolha um em Planos: a primeira fatura aparece aqui.</Text>
        )}
      </Card>
      {sub && invoice && (
        <Card withBorder radius="md" padding="lg" data-testid="first-invoice">
          <Title order={4} mb={4}>
            Fatura nº {invoice.number}: {formatBRL(invoice.valor)}
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            Período de {formatDay(invoice.period_start)} a {formatDay(invoice.period_end)}. Vencimento: {formatDay(invoice.due_at)}.
          </Text>
          <PixPayment invoiceId={invoice.id} onPaid={() => void refreshAfterPayment()} />
        </Card>
      )}
      {sub && !invoice && (
        <Alert color="teal" icon={<IconCircleCheck />} title="Pagamento">
          Nenhuma fatura em aberto.
        </Alert>
      )}
      {footer(!!sub)}
    </Stack>
  );
}
