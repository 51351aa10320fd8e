import { Loader, Paper, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { REGISTRATION_STEPS, useRegistrationSteps } from '../../../lib/registration';
import { AddressStep } from './AddressStep';
import { EmailStep } from './EmailStep';
import { PlanSummaryStep } from './PlanSummaryStep';
import { RegistrationStepsNav, registrationStateText } from './RegistrationStepsNav';

/**
 * /complete-register (A4): 1 confirm the e-mail, 2 the enterprise's address (CEP lookup), 3 the plan summary and its
 * first invoice. The open step is in the URL (`?step=2`), so a reload or a shared link keeps it; without one, the
 * page opens on the first step not done. Each step's state in the header is the server's (ADR 84).
 */
export function CompleteRegisterPage() {
  const [query, setQuery] = useSearchParams();
  const narrow = useMediaQuery('(max-width: 36em)') ?? false;
  const states = useRegistrationSteps();
  const asked = Number(query.get('step'));
  const settled = REGISTRATION_STEPS.every((step) => states[step.key] !== 'loading');
  const firstTodo = REGISTRATION_STEPS.findIndex((step) => states[step.key] === 'todo');
  const step = asked >= 1 && asked <= REGISTRATION_STEPS.length ? Math.floor(asked) - 1 : settled ? Math.max(0, firstTodo) : null;
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
      {narrow && step !== null && (
        <Text c="dimmed" mb="sm">
          Passo {step + 1} de {REGISTRATION_STEPS.length}: {REGISTRATION_STEPS[step]!.label} ({registrationStateText(states[REGISTRATION_STEPS[step]!.key]).toLowerCase()})
        </Text>
      )}
      <RegistrationStepsNav states={states} active={step ?? -1} onSelect={go} compact={narrow} />
      {step === null && <Loader aria-label="Carregando" />}
      {step === 0 && <EmailStep onNext={() => go(1)} />}
      {step === 1 && <AddressStep onBack={() => go(0)} onNext={() => go(2)} />}
      {step === 2 && <PlanSummaryStep onBack={() => go(1)} />}
    </Paper>
  );
}
