import { Box, Group, Loader, Text, ThemeIcon, UnstyledButton } from '@mantine/core';
import { IconAlertTriangle, IconCheck } from '@tabler/icons-react';
import { REGISTRATION_STEPS, type RegistrationStepKey, type RegistrationStepState } from '../../../lib/registration';

const STATE_TEXT: Record<RegistrationStepState, string> = {
  done: 'Concluído',
  todo: 'Pendente',
  loading: 'Verificando…',
  error: 'Não foi possível verificar',
  others: 'Com os administradores',
};

interface RegistrationStepsNavProps {
  states: Record<RegistrationStepKey, RegistrationStepState>;
  active: number;
  onSelect: (index: number) => void;
  /** On a phone the labels do not fit in a row: numbers only (the page names the step above). */
  compact: boolean;
}

/**
 * The header of /complete-register. Mantine's Stepper marks every step before the open one as completed; here each
 * step shows what the server says of it (ADR 84), whichever step is open, so "Concluído" is never said of a step
 * not done.
 */
export function RegistrationStepsNav({ states, active, onSelect, compact }: RegistrationStepsNavProps) {
  return (
    <Group component="nav" aria-label="Passos do cadastro" gap="xs" wrap="nowrap" mb="md">
      {REGISTRATION_STEPS.map((step, index) => {
        const state = states[step.key];
        const current = index === active;
        return (
          <Group key={step.key} gap="xs" wrap="nowrap" style={{ flex: index < REGISTRATION_STEPS.length - 1 ? 1 : undefined }}>
            <UnstyledButton
              onClick={() => onSelect(index)}
              aria-current={current ? 'step' : undefined}
              aria-label={`Passo ${index + 1}, ${step.label}: ${STATE_TEXT[state]}`}
              data-state={state}
              data-testid={`registration-step-${step.key}`}
            >
              <Group gap="xs" wrap="nowrap">
                <ThemeIcon
                  size={34}
                  radius="xl"
                  variant={state === 'done' ? 'filled' : current ? 'outline' : 'light'}
                  color={state === 'done' ? 'teal' : state === 'error' ? 'red' : current ? 'blue' : 'gray'}
                  style={current ? { boxShadow: '0 0 0 2px var(--mantine-color-blue-2)' } : undefined}
                >
                  {state === 'done' ? (
                    <IconCheck size={18} />
                  ) : state === 'loading' ? (
                    <Loader size={14} color="gray" />
                  ) : state === 'error' ? (
                    <IconAlertTriangle size={18} />
                  ) : (
                    <Text fw={700} size="sm">
                      {index + 1}
                    </Text>
                  )}
                </ThemeIcon>
                {!compact && (
                  <div>
                    <Text size="sm" fw={current ? 700 : 500}>
                      {step.label}
                    </Text>
                    <Text size="xs" c={state === 'done' ? 'teal' : state === 'error' ? 'red' : 'dimmed'}>
                      {STATE_TEXT[state]}
                    </Text>
                  </div>
                )}
              </Group>
            </UnstyledButton>
            {index < REGISTRATION_STEPS.length - 1 && (
              <Box aria-hidden style={{ flex: 1, minWidth: 12, height: 2, background: state === 'done' ? 'var(--mantine-color-teal-5)' : 'var(--mantine-color-gray-3)' }} />
            )}
          </Group>
        );
      })}
    </Group>
  );
}

export const registrationStateText = (state: RegistrationStepState) => STATE_TEXT[state];
