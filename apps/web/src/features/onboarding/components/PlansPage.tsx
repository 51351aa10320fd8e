import { Alert, Card, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { MSG, can, formatBRL, invoiceLine, isMonthlyCycle, numberToCents, type Plan, type Subscription } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useRef, useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { PixPayment } from '../../../components/PixPayment';
import { PlanCards } from '../../../components/PlanCards';
import { errorMessage } from '../../../lib/api-client';
import { useRequiredSession } from '../../../lib/session';
import { formatDay, useCancelPendingChange, useChangeSubscription, useRefreshAfterPayment, useSubscription } from '../../../lib/subscription';
import { useEnterprisePlan } from '../api/enterprise-plan';
import { usePlans } from '../api/plans';
import { SubscriptionPanel } from './SubscriptionPanel';

type Choice = { plan: Plan; cycle: Plan['cicle'][number] };

// Plan values are reais with two decimals at most (validated when saved): exact centavos, by the one converter.
const toCents = (reais: number) => numberToCents(reais) ?? 0;

/**
 * What choosing this plan will do, as the server decides it (ADR 32): a higher price in the same cycle is an upgrade
 * that takes effect now with a pro-rated invoice; anything else waits for the next cycle.
 */
function choiceText(subscription: Subscription | null | undefined, { plan, cycle }: Choice): string {
  const name = `${plan.name} — ${cycle.name}`;
  if (!subscription) return `O plano ${name} passa a ser o da sua empresa agora, e a primeira fatura (${formatBRL(toCents(cycle.value))}) é emitida para pagamento por PIX.`;
  const { current, period } = subscription;
  const sameCycle = isMonthlyCycle(current.cicle_name) === isMonthlyCycle(cycle.name);
  if (sameCycle && toCents(cycle.value) > current.value_cents) {
    return (
      `Upgrade para ${name}: vale agora. Será emitida uma fatura com a diferença de preço pelos dias restantes do período atual` +
      `${period ? ` (até ${formatDay(period.end)})` : ''}, para pagamento por PIX.`
    );
  }
  const when = subscription.period ? `em ${formatDay(subscription.period.end)}` : 'no próximo ciclo';
  return `A troca para ${name} começa no próximo ciclo (${when}). Até lá, a empresa continua no plano ${current.plan_name} — ${current.cicle_name}. Você pode cancelar a troca antes disso.`;
}

/**
 * /plans (A11): the plans with Mensal/Anual tabs and the enterprise's current plan marked. Its administrators see the
 * subscription (plan, cycle, status, period, a change waiting) and change it: an upgrade at once with a pro-rated
 * invoice paid by PIX right here, anything else at the next cycle (ADR 32).
 */
export function PlansPage() {
  const session = useRequiredSession();
  const { user, enterprise } = session;
  const plans = usePlans();
  const enterprisePlan = useEnterprisePlan();
  const mayChange = can(user.profile._id, 'enterprise:settings') && !!enterprise?._id;
  const subscription = useSubscription(mayChange);
  const change = useChangeSubscription();
  const cancelPending = useCancelPendingChange();
  const refreshAfterPayment = useRefreshAfterPayment();
  const [choice, setChoice] = useState<Choice | null>(null);

  // A double click confirms once: the second click comes before React shows the button busy. (The server also makes
  // one pro-rated invoice per change, but a second answer, "already current", would hide the first one's invoice.)
  const confirming = useRef(false);
  const confirm = () => {
    if (!choice || confirming.current) return;
    confirming.current = true;
    // One outcome on screen at a time: a cancellation's message from before goes.
    cancelPending.reset();
    change.mutate(
      { plan_id: choice.plan._id, cicle_id: choice.cycle.id },
      {
        onSettled: () => {
          confirming.current = false;
          setChoice(null);
        },
      },
    );
  };

  const requested = enterprisePlan.data?.requested;
  const current = enterprisePlan.data?.current;
  // A retired plan (ADR 28) is not among the cards, but the enterprise keeps it until it chooses another.
  const currentRetired = !!current && !!plans.data && !plans.data.some((p) => p.cicle.some((c) => c.id === current.cicle_id));
  const invoice = change.data?.invoice;
  return (
    <Stack>
      <Title order={2}>Planos</Title>
      {change.isSuccess && (
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {change.data.message}
        </Alert>
      )}
      {invoice && invoice.pending && (
        <Card withBorder radius="md" padding="lg" data-testid="change-invoice">
          <Title order={4} mb="xs">
            Fatura nº {invoice.number}: {formatBRL(invoice.valor)}
          </Title>
          <Text size="sm" mb={4}>
            {invoiceLine(invoice, formatDay).description}. Vencimento: {formatDay(invoice.due_at)}.
          </Text>
          {invoiceLine(invoice, formatDay).reference && (
            <Text size="sm" c="dimmed" mb="sm" data-testid="change-invoice-reference">
              {invoiceLine(invoice, formatDay).reference}
            </Text>
          )}
          <PixPayment invoiceId={invoice.id} onPaid={() => void refreshAfterPayment()} />
        </Card>
      )}
      {(change.isError || cancelPending.isError) && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(change.error ?? cancelPending.error, MSG.internalError)}
        </Alert>
      )}
      {cancelPending.isSuccess && (
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {cancelPending.data.message}
        </Alert>
      )}
      {mayChange && subscription.data && (
        <SubscriptionPanel
          subscription={subscription.data}
          onCancelPending={() => {
            // "Troca agendada" said by the change is no longer true once cancelled: only the cancellation is said.
            change.reset();
            cancelPending.mutate();
          }}
          cancelling={cancelPending.isPending}
        />
      )}
      {!subscription.data && requested && (
        <Text size="sm">
          Troca pedida: <b>{requested.plan_name}</b> — {requested.cicle_name}. A cobrança do novo plano começa no próximo ciclo.
        </Text>
      )}
      {currentRetired && (
        <Text size="sm">
          Plano atual: <b>{current.plan_name}</b> — {current.cicle_name}. Este plano não é mais oferecido; a empresa continua com ele até escolher
          outro.
        </Text>
      )}
      {!mayChange && <Text c="dimmed">Somente os administradores da empresa podem trocar o plano.</Text>}
      {plans.isPending || enterprisePlan.isPending || (mayChange && subscription.isPending) ? (
        <Center py="xl">
          <Loader aria-label="Carregando" />
        </Center>
      ) : plans.isError ? (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(plans.error, MSG.internalError)}
        </Alert>
      ) : plans.data.length === 0 ? (
        <Text c="dimmed">Nenhum plano disponível no momento.</Text>
      ) : (
        <PlanCards
          plans={plans.data}
          currentCycleId={subscription.data?.current.cicle_id ?? enterprisePlan.data?.current?.cicle_id ?? null}
          onSelect={(plan, cycle) => mayChange && setChoice({ plan, cycle })}
          selectDisabled={!mayChange || change.isPending}
        />
      )}
      <ConfirmModal
        opened={!!choice}
        title="Trocar de plano"
        confirmLabel="Confirmar troca"
        loading={change.isPending}
        onConfirm={confirm}
        onClose={() => setChoice(null)}
      >
        {choice ? choiceText(subscription.data, choice) : ''}
      </ConfirmModal>
    </Stack>
  );
}
