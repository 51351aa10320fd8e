import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Text, Textarea } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AcknowledgeAlarmBody, type OpenAlarm } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTimeMinutes } from '../../../lib/format';
import { paths } from '../../../lib/paths';
import { useAcknowledgeOpenAlarm } from '../api/acknowledge-open-alarm';
import { useOpenAlarms } from '../api/get-open-alarms';
import { OPEN_ALARMS_MESSAGES } from '../messages';

/** The open alarms across the devices the user may see, newest first, each with its acknowledgement (issue 11, item 5). */
export function OpenAlarmsList({ onNavigate }: { onNavigate: () => void }) {
  const alarms = useOpenAlarms(true);

  if (alarms.isPending) {
    return (
      <Group justify="center" p="md">
        <Loader size="sm" aria-label="Carregando alarmes ativos" />
      </Group>
    );
  }
  if (alarms.isError) {
    return (
      <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
        {errorMessage(alarms.error, OPEN_ALARMS_MESSAGES.loadError)}
      </Alert>
    );
  }
  const { alarms: list, count } = alarms.data;
  if (list.length === 0) {
    return (
      <Text c="dimmed" ta="center" p="md">
        {OPEN_ALARMS_MESSAGES.empty}
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <ul aria-label={OPEN_ALARMS_MESSAGES.title} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {list.map((alarm) => (
          <OpenAlarmItem key={alarm._id} alarm={alarm} onNavigate={onNavigate} />
        ))}
      </ul>
      {count > list.length && (
        <Text size="xs" c="dimmed">
          {OPEN_ALARMS_MESSAGES.more(list.length, count)}
        </Text>
      )}
    </Stack>
  );
}

function OpenAlarmItem({ alarm, onNavigate }: { alarm: OpenAlarm; onNavigate: () => void }) {
  const [acknowledging, setAcknowledging] = useState(false);
  const travel = alarm.travel;
  return (
    <li aria-label={`${alarm.device.name}: ${alarm.type_formatted}`} style={{ borderBottom: '1px solid var(--mantine-color-default-border)' }}>
      <Stack gap={4} py="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Text fw={600} size="sm" truncate="end">
            {alarm.device.name}
          </Text>
          <Badge color={alarm.acknowledge ? 'orange' : 'red'} variant="light" style={{ flexShrink: 0 }}>
            {alarm.type_formatted}
          </Badge>
        </Group>
        {travel && (
          <Text size="xs" c="dimmed" truncate="end" title={`${travel.origin_address} → ${travel.destiny_address}`}>
            Viagem {travel.code}
            {travel.origin_address && travel.destiny_address ? ` · ${travel.origin_address} → ${travel.destiny_address}` : ''}
          </Text>
        )}
        <Text size="sm">{alarm.message}</Text>
        <Text size="xs" c="dimmed">
          Desde {formatDateTimeMinutes(alarm.date)}
        </Text>
        {alarm.acknowledge && (
          <Text size="xs" c="dimmed">
            Reconhecido {alarm.acknowledge.user ? `por ${alarm.acknowledge.user.name} ` : ''}em {formatDateTimeMinutes(alarm.acknowledge.date)}
          </Text>
        )}
        {acknowledging ? (
          <AcknowledgeForm alarm={alarm} onDone={() => setAcknowledging(false)} />
        ) : (
          <Group gap="xs" justify="space-between">
            <Anchor component={Link} to={paths.deviceHistory(alarm.device.mac, alarm.device._id)} size="sm" onClick={onNavigate}>
              Ver histórico
            </Anchor>
            {!alarm.acknowledge && (
              <Button size="xs" variant="light" onClick={() => setAcknowledging(true)}>
                Reconhecer
              </Button>
            )}
          </Group>
        )}
      </Stack>
    </li>
  );
}

function AcknowledgeForm({ alarm, onDone }: { alarm: OpenAlarm; onDone: () => void }) {
  const acknowledge = useAcknowledgeOpenAlarm();
  const {
    register,
    handleSubmit,
    formState: { errors },
  } = useForm({ resolver: zodResolver(AcknowledgeAlarmBody), defaultValues: { message: '' } });

  const onSubmit = handleSubmit(({ message }) =>
    acknowledge.mutateAsync({ id: alarm._id, message }).then(
      () => {
        notifications.show({ color: 'teal', title: 'Sucesso!', message: OPEN_ALARMS_MESSAGES.acknowledged });
        onDone();
      },
      (error: unknown) =>
        notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, OPEN_ALARMS_MESSAGES.acknowledgeError) }),
    ),
  );

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack gap="xs">
        <Textarea
          label="Mensagem de reconhecimento"
          description="Descreva o que foi verificado ou feito."
          rows={2}
          autoFocus
          error={errors.message?.message}
          {...register('message')}
        />
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={onDone} disabled={acknowledge.isPending}>
            Cancelar
          </Button>
          <Button size="xs" type="submit" loading={acknowledge.isPending}>
            Reconhecer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
