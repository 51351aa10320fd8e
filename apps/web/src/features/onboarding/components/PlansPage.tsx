import { Alert, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { MSG, can, type Plan } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { PlanCards } from '../../../components/PlanCards';
import { errorMessage } from '../../../lib/api-client';
import { usePlans } from '../api/plans';
import { useRequiredSession } from '../../../lib/session';
import { useEnterprisePlan, useRequestPlan } from '../api/enterprise-plan';

/**
 * /plans (A11): the plans with Mensal/Anual tabs and the enterprise's current plan marked. Choosing another records
 * the change; billing charges it from the next cycle.
 */
export function PlansPage() {
  const { user } = useRequiredSession();
  const plans = usePlans();
  const enterprisePlan = useEnterprisePlan();
  const request = useRequestPlan();
  const mayChange = can(user.profile._id, 'enterprise:settings');

  const choose = (plan: Plan, cycle: Plan['cicle'][number]) => {
    if (mayChange) request.mutate({ plan_id: plan._id, cicle_id: cycle.id });
  };

  const requested = enterprisePlan.data?.requested;
  const current = enterprisePlan.data?.current;
  // A retired plan (ADR 28) is not among the cards, but the enterprise keeps it until it chooses another.
  const currentRetired = !!current && !!plans.data && !plans.data.some((p) => p.cicle.some((c) => c.id === current.cicle_id));
  return (
    <Stack>
      <Title order={2}>Planos</Title>
      {request.isSuccess && (
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {request.data.message}
        </Alert>
      )}
      {request.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(request.error, MSG.internalError)}
        </Alert>
      )}
      {requested && (
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
      {plans.isPending || enterprisePlan.isPending ? (
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
        <PlanCards plans={plans.data} currentCycleId={enterprisePlan.data?.current?.cicle_id ?? null} onSelect={choose} selectDisabled={!mayChange || request.isPending} />
      )}
    </Stack>
  );
}
