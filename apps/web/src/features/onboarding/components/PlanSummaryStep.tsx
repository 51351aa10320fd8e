import { Alert, Button, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { MSG, isMonthlyCycle } from '@sentinela/contract';
import { IconAlertCircle, IconInfoCircle } from '@tabler/icons-react';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { formatBRL, formatDateTime } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useEnterprisePlan } from '../api/enterprise-plan';

/** Step 3: the plan the enterprise has (and a change waiting for billing). The card form arrives with billing. */
export function PlanSummaryStep({ onBack }: { onBack: () => void }) {
  const plan = useEnterprisePlan();
  if (plan.isPending) return <Loader aria-label="Carregando" />;
  if (plan.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(plan.error, MSG.internalError)}
      </Alert>
    );
  }
  const { current, requested } = plan.data;
  return (
    <Stack mt="md">
      <Card withBorder radius="md" padding="lg">
        <Title order={4} mb="xs">
          Resumo do plano
        </Title>
        {current ? (
          <Stack gap={4}>
            <Text fw={600}>
              {current.plan_name} — {current.cicle_name}
            </Text>
            <Text fz={24} fw={700}>
              {formatBRL(current.value)}
              <Text span c="dimmed" fz="md">
                {isMonthlyCycle(current.cicle_name) ? '/mês' : '/ano'}
              </Text>
            </Text>
          </Stack>
        ) : (
          <Text c="dimmed">Sua empresa ainda não escolheu um plano.</Text>
        )}
        {requested && (
          <Text size="sm" mt="sm">
            Troca pedida em {formatDateTime(requested.requested_at)}: {requested.plan_name} — {requested.cicle_name}.
          </Text>
        )}
      </Card>
      <Alert color="blue" icon={<IconInfoCircle />} title="Pagamento">
        O pagamento com cartão de crédito será habilitado em breve. Até lá, nada é cobrado.
      </Alert>
      <Group justify="space-between">
        <Button variant="default" onClick={onBack}>
          Voltar
        </Button>
        <Group gap="xs">
          <Button component={Link} to={paths.plans} variant="light">
            {current ? 'Trocar plano' : 'Escolher plano'}
          </Button>
          <Button component={Link} to={paths.myDevices}>
            Concluir
          </Button>
        </Group>
      </Group>
    </Stack>
  );
}
