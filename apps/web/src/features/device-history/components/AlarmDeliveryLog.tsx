import '@mantine/core/styles/Table.css';
import { Badge, Loader, Stack, Table, Text } from '@mantine/core';
import { ALARM_DELIVERY_STATUS_NAMES, MSG, NOTIFICATION_CHANNEL_NAMES, type AlarmDelivery } from '@sentinela/contract';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime } from '../../../lib/format';
import { useAlarmDeliveries } from '../api/get-alarm-deliveries';

const STATUS_COLORS: Record<AlarmDelivery['status'], string> = { pending: 'gray', sent: 'teal', failed: 'red', cancelled: 'gray' };
const EVENT_NAMES: Record<AlarmDelivery['event'], string> = { opened: 'Início do alarme', ended: 'Fim do alarme', reminder: 'Lembrete', escalated: 'Escalonamento' };

/** "Notificações enviadas" of "Detalhes do alarme": each message of the alarm, its channel, recipient and outcome. */
export function AlarmDeliveryLog({ mac, alarmId }: { mac: string; alarmId: string }) {
  const deliveries = useAlarmDeliveries(mac, alarmId);
  return (
    <Stack gap={4}>
      <Text size="xs" c="dimmed">
        Notificações enviadas
      </Text>
      {deliveries.isPending ? (
        <Loader size="xs" aria-label="Carregando notificações" />
      ) : deliveries.isError ? (
        <Text size="sm" c="red">
          {errorMessage(deliveries.error, MSG.internalError)}
        </Text>
      ) : deliveries.data.length === 0 ? (
        <Text size="sm">Nenhuma notificação enviada para este alarme.</Text>
      ) : (
        <Table.ScrollContainer type="native" minWidth={320}>
          <Table fz="xs" verticalSpacing={4} aria-label="Notificações enviadas">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Canal</Table.Th>
                <Table.Th>Destinatário</Table.Th>
                <Table.Th>Situação</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {deliveries.data.map((d) => (
                <Table.Tr key={d._id}>
                  <Table.Td>
                    {NOTIFICATION_CHANNEL_NAMES[d.channel]}
                    <Text fz="xs" c="dimmed">
                      {EVENT_NAMES[d.event]}{d.event === 'reminder' ? ` ${d.seq}` : ''}
                    </Text>
                  </Table.Td>
                  <Table.Td style={{ wordBreak: 'break-word' }}>{d.recipient}</Table.Td>
                  <Table.Td>
                    <Badge size="xs" variant="light" color={STATUS_COLORS[d.status]}>
                      {ALARM_DELIVERY_STATUS_NAMES[d.status]}
                    </Badge>
                    <Text fz="xs" c="dimmed">
                      {formatDateTime(d.sent_at ?? d.created_at)}
                    </Text>
                    {d.attempts > 1 && (
                      <Text fz="xs" c="dimmed">
                        {d.attempts} tentativas
                      </Text>
                    )}
                    {d.error && d.status !== 'sent' && (
                      <Text fz="xs" c="red" style={{ wordBreak: 'break-word' }}>
                        {d.error}
                      </Text>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
