import '@mantine/core/styles/Tabs.css';
import { Badge, Button, Card, List, SimpleGrid, Stack, Tabs, Text, Title } from '@mantine/core';
import { formatBRL, isMonthlyCycle, numberToCents, type Plan } from '@sentinela/contract';
import { IconCheck } from '@tabler/icons-react';
import { useState } from 'react';

export type CycleKind = 'monthly' | 'annual';

/**
 * Plan cards with the Mensal (default) / Anual tabs (A1, A11): name, cycle, features and the price in R$ with /mês or
 * /ano. The landing page and /plans show the same cards; what "Selecionar plano" does is theirs.
 */
export function PlanCards({
  plans,
  onSelect,
  currentCycleId,
  selectLabel = 'Selecionar plano',
  selectDisabled = false,
}: {
  plans: Plan[];
  onSelect: (plan: Plan, cycle: Plan['cicle'][number]) => void;
  /** The enterprise's current cycle, marked (on /plans). */
  currentCycleId?: string | null;
  selectLabel?: string;
  /** The viewer may look but not choose (e.g. a user who is not an administrator of the enterprise). */
  selectDisabled?: boolean;
}) {
  const [kind, setKind] = useState<CycleKind>('monthly');
  return (
    <Tabs value={kind} onChange={(value) => setKind(value === 'annual' ? 'annual' : 'monthly')} variant="pills">
      <Tabs.List justify="center" mb="lg">
        <Tabs.Tab value="monthly">Mensal</Tabs.Tab>
        <Tabs.Tab value="annual">Anual</Tabs.Tab>
      </Tabs.List>
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {plans.flatMap((plan) => {
          const cycle = plan.cicle.find((c) => isMonthlyCycle(c.name) === (kind === 'monthly'));
          if (!cycle) return [];
          const current = cycle.id === currentCycleId;
          return [
            <Card key={plan._id} withBorder radius="md" padding="lg" data-testid="plan-card" style={current ? { borderColor: 'var(--mantine-color-teal-6)', borderWidth: 2 } : undefined}>
              <Stack gap="sm" h="100%">
                <Title order={3}>{plan.name}</Title>
                <Text c="dimmed" size="sm">
                  {cycle.name}
                  {current && (
                    <Badge ml="xs" color="teal">
                      Plano atual
                    </Badge>
                  )}
                </Text>
                <Text fw={700} fz={28}>
                  {formatBRL(numberToCents(cycle.value) ?? 0)}
                  <Text span c="dimmed" fz="md">
                    {isMonthlyCycle(cycle.name) ? '/mês' : '/ano'}
                  </Text>
                </Text>
                <List spacing={6} size="sm" icon={<IconCheck size={16} color="var(--mantine-color-teal-6)" />} style={{ flex: 1 }}>
                  {cycle.features.map((feature) => (
                    <List.Item key={feature.name}>{feature.name}</List.Item>
                  ))}
                </List>
                <Button onClick={() => onSelect(plan, cycle)} disabled={current || selectDisabled} aria-label={`${current ? 'Plano atual' : selectLabel} ${plan.name} ${cycle.name}`}>
                  {current ? 'Plano atual' : selectLabel}
                </Button>
              </Stack>
            </Card>,
          ];
        })}
      </SimpleGrid>
    </Tabs>
  );
}
