import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Divider, Group, Modal, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AcknowledgeAlarmBody, type AlarmNotification } from '@sentinela/contract';
import { useState, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { EMPTY_SIGNATURE, SignatureFields, type SignatureValue } from '../../../components/compliance/SignatureFields';
import { SignatureLine } from '../../../components/compliance/SignatureLine';
import { errorMessage } from '../../../lib/api-client';
import { useCompliance } from '../../../lib/compliance';
import { useSession } from '../../../lib/session';
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
      {alarm.acknowledge?.signature && <SignatureLine signature={alarm.acknowledge.signature} />}
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
  // GxP mode (ADR 0062): the acknowledgement is an electronic signature. The server is the judge: when it asks for a
  // password (an enterprise in GxP mode seen by the super admin), the fields appear.
  const compliance = useCompliance();
  const signerName = useSession()?.user.name ?? '';
  const [signature, setSignature] = useState<SignatureValue>(EMPTY_SIGNATURE);
  const [askSignature, setAskSignature] = useState(false);
  const signs = compliance.gxp || askSignature;
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(AcknowledgeAlarmBody), defaultValues: { message: '' } });

  // mutateAsync, not mutate's callbacks: once saved, the alarm shows as acknowledged and this form unmounts,
  // which would drop per-call callbacks before the message is shown.
  const onSubmit = handleSubmit(({ message }) =>
    acknowledge
      .mutateAsync({ id: alarmId, message, ...(signs ? { password: signature.password || undefined, meaning: signature.meaning ?? undefined } : {}) })
      .then(
        () => notifications.show({ color: 'teal', title: 'Sucesso!', message: signs ? 'Alarme reconhecido e assinado.' : HISTORY_MESSAGES.alarmAcknowledged }),
        (error: unknown) => {
          const text = errorMessage(error, HISTORY_MESSAGES.alarmAcknowledgeError);
          if (/assinar|assinatura/i.test(text)) setAskSignature(true);
          notifications.show({ color: 'red', title: 'Erro!', message: text });
        },
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
        {signs && <SignatureFields value={signature} onChange={setSignature} signerName={signerName} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={acknowledge.isPending}>
            Fechar
          </Button>
          <Button type="submit" loading={acknowledge.isPending}>
            {signs ? 'Reconhecer e assinar' : 'Reconhecer'}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
