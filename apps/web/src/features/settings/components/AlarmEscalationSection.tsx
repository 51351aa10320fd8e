import { zodResolver } from '@hookform/resolvers/zod';
import { NumberInput, Stack } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AlarmEscalationSettings, ESCALATION_MESSAGES, MSG } from '@sentinela/contract';
import { Controller, useForm } from 'react-hook-form';
import { SettingsSaveButton, SettingsSection, SettingsValues } from '../../../components/SettingsSection';
import { errorMessage } from '../../../lib/api-client';
import { useAlarmEscalation, useSaveAlarmEscalation } from '../api/alarm-escalation';

/**
 * "Lembretes e escalonamento" (ADR 24), for the enterprise's administrators: how often an open, unacknowledged alarm
 * is reminded, and after how long the administrators are told too. 0 turns either off.
 */
export function AlarmEscalationSection() {
  const current = useAlarmEscalation();
  return (
    <SettingsSection
      title="Lembretes e escalonamento"
      description="Enquanto um alarme da empresa continuar ativo e sem reconhecimento, quem o recebeu é lembrado a cada intervalo; depois do tempo para escalonar, os administradores da empresa também são avisados (por e-mail, se não recebem os alarmes por outro canal)."
    >
      <SettingsValues query={current}>{(values) => <EscalationForm values={values} />}</SettingsValues>
    </SettingsSection>
  );
}

/** A number field's value as the form keeps it: an emptied field is not a number (the schema says why). */
const asNumber = (value: number | string) => (typeof value === 'number' ? value : Number.NaN);

function EscalationForm({ values }: { values: AlarmEscalationSettings }) {
  const save = useSaveAlarmEscalation();
  const { control, handleSubmit, reset } = useForm<AlarmEscalationSettings>({ resolver: zodResolver(AlarmEscalationSettings), defaultValues: values });
  const onSubmit = handleSubmit((body) =>
    save.mutate(body, {
      onSuccess: (saved) => {
        reset(saved);
        notifications.show({ color: 'teal', title: 'Sucesso!', message: ESCALATION_MESSAGES.saved });
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, MSG.internalError) }),
    }),
  );
  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        <Controller
          control={control}
          name="reminder_minutes"
          render={({ field, fieldState }) => (
            <NumberInput
              label="Lembrete a cada (minutos)"
              description="0 desliga os lembretes."
              min={0}
              max={1440}
              allowDecimal={false}
              allowNegative={false}
              inputMode="numeric"
              name={field.name}
              ref={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(value) => field.onChange(asNumber(value))}
              error={fieldState.error?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="escalation_minutes"
          render={({ field, fieldState }) => (
            <NumberInput
              label="Escalonar para os administradores após (minutos)"
              description="0 desliga o escalonamento."
              min={0}
              max={1440}
              allowDecimal={false}
              allowNegative={false}
              inputMode="numeric"
              name={field.name}
              ref={field.ref}
              value={field.value}
              onBlur={field.onBlur}
              onChange={(value) => field.onChange(asNumber(value))}
              error={fieldState.error?.message}
            />
          )}
        />
        <SettingsSaveButton loading={save.isPending} />
      </Stack>
    </form>
  );
}
