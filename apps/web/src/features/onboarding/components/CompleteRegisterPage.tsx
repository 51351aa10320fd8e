import '@mantine/core/styles/Stepper.css';
import { Paper, Stepper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
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
  // On a phone the three labels do not fit in a row: numbers only, and the step named above them.
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
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
      <Title order={2} mb={narrow ? 'xs' : 'lg'}>
        Concluir cadastro
      </Title>
      {narrow && (
        <Text c="dimmed" mb="sm">
          Passo {step + 1} de {STEPS.length}: {STEPS[step]}
        </Text>
      )}
      <Stepper active={step} onStepClick={go} size="sm" allowNextStepsSelect>
        <Stepper.Step label={narrow ? undefined : STEPS[0]} description={narrow ? undefined : 'Passo 1'} aria-label={STEPS[0]}>
          <EmailStep onNext={() => go(1)} />
        </Stepper.Step>
        <Stepper.Step label={narrow ? undefined : STEPS[1]} description={narrow ? undefined : 'Passo 2'} aria-label={STEPS[1]}>
          <AddressStep onBack={() => go(0)} onNext={() => go(2)} />
        </Stepper.Step>
        <Stepper.Step label={narrow ? undefined : STEPS[2]} description={narrow ? undefined : 'Passo 3'} aria-label={STEPS[2]}>
          <PlanSummaryStep onBack={() => go(1)} />
        </Stepper.Step>
      </Stepper>
    </Paper>
  );
}
