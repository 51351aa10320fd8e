import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Divider, Group, Modal, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AcknowledgeAlarmBody, type AlarmNotification } from '@sentinela/contract';
import type { ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { useAcknowledgeAlarm } from '../api/acknowledge-alarm';
import { HISTORY_MESSAGES } from '../messages';
import { AlarmDeliveryLog } from './AlarmDeliveryLog';

interface AlarmDetailsModalProps {
  mac: string;
  alarm: AlarmNotification | null;
  onClose: () => void;
}

/** "Detalhes do alarme", with the acknowledgement form while the alarm is not acknowledged (D6). */
export function AlarmDetailsModal({ mac, alarm, onClose }: AlarmDetailsModalProps) {
  return (
    <Modal opened={alarm !== null} onClose={onClose} title="Detalhes do alarme" centered size="lg">
      {alarm && <AlarmDetails key={alarm._id} mac={mac} alarm={alarm} onClose={onClose} />}
    </Modal>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

function AlarmDetails({ mac, alarm, onClose }: { mac: string; alarm: AlarmNotification; onClose: () => void }) {
  const acknowledged = alarm.acknowledge !== null;
  return (
    <Stack>
      <Field label="Mensagem">{alarm.message}</Field>
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
        <Field label="Data de ocorrência">{formatDateTime(alarm.date)}</Field>
        <Field label="Tipo do alarme">{alarm.type_formatted}</Field>
        <Field label="Temperatura (mín-máx)">{alarm.temperature_formatted}</Field>
        <Field label="Umidade (mín-máx)">{alarm.humidity_formatted}</Field>
        <Field label="Ativo?">{alarm.active_formatted}</Field>
        <Field label="Reconhecido?">{alarm.acknowledge_formatted}</Field>
      </SimpleGrid>
      <Field label="Mensagem de reconhecimento">{alarm.acknowledge?.message || EMPTY}</Field>
      {alarm.acknowledge && (
        <Text size="xs" c="dimmed">
          Reconhecido {alarm.acknowledge.user ? `por ${alarm.acknowledge.user.name} ` : ''}em{' '}
          {formatDateTime(alarm.acknowledge.date)}
        </Text>
      )}
      <AlarmDeliveryLog mac={mac} alarmId={alarm._id} />
      {acknowledged ? (
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Fechar
          </Button>
        </Group>
      ) : (
        <AcknowledgeForm mac={mac} alarmId={alarm._id} onClose={onClose} />
      )}
    </Stack>
  );
}

function AcknowledgeForm({ mac, alarmId, onClose }: { mac: string; alarmId: string; onClose: () => void }) {
  const acknowledge = useAcknowledgeAlarm(mac);
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(AcknowledgeAlarmBody), defaultValues: { message: '' } });

  // mutateAsync, not mutate's callbacks: once saved, the alarm shows as acknowledged and this form unmounts,
  // which would drop per-call callbacks before the message is shown.
  const onSubmit = handleSubmit(({ message }) =>
    acknowledge.mutateAsync({ id: alarmId, message }).then(
      () => notifications.show({ color: 'teal', title: 'Sucesso!', message: HISTORY_MESSAGES.alarmAcknowledged }),
      (error: unknown) =>
        notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, HISTORY_MESSAGES.alarmAcknowledgeError) }),
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="sm">
        <Divider />
        <Textarea
          label="Reconhecer alarme"
          description="Descreva o que foi verificado ou feito."
          placeholder="Mensagem de reconhecimento"
          rows={3}
          error={errors.message?.message}
          {...register('message')}
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={acknowledge.isPending}>
            Fechar
          </Button>
          <Button type="submit" loading={acknowledge.isPending}>
            Reconhecer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
