import { Paper, Stepper, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { AddressStep } from './AddressStep';
import { EmailStep } from './EmailStep';
import { PlanSummaryStep } from './PlanSummaryStep';

const STEPS = ['Confirmar e-mail', 'Endereço', 'Pagamento'] as const;

/**
 * /complete-register (A4): 1 confirm the e-mail, 2 the enterprise's address (CEP lookup), 3 the plan summary
 * (payment arrives with billing). The step is in the URL (`?step=2`), so a reload or a shared link keeps it.
 */
export function CompleteRegisterPage() {
  const [query, setQuery] = useSearchParams();
  const step = Math.min(STEPS.length, Math.max(1, Number(query.get('step')) || 1)) - 1;
  const go = (index: number) =>
    setQuery(
      (previous) => {
        const next = new URLSearchParams(previous);
        next.set('step', String(index + 1));
        return next;
      },
      { replace: true },
    );

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'xl' }} maw={860} mx="auto">
      <Title order={2} mb="lg">
        Concluir cadastro
      </Title>
      <Stepper active={step} onStepClick={go} size="sm" allowNextStepsSelect>
        <Stepper.Step label={STEPS[0]} description="Passo 1">
          <EmailStep onNext={() => go(1)} />
        </Stepper.Step>
        <Stepper.Step label={STEPS[1]} description="Passo 2">
          <AddressStep onBack={() => go(0)} onNext={() => go(2)} />
        </Stepper.Step>
        <Stepper.Step label={STEPS[2]} description="Passo 3">
          <PlanSummaryStep onBack={() => go(1)} />
        </Stepper.Step>
      </Stepper>
    </Paper>
  );
}
