import { Alert, Badge, Button, Card, Group, Stack, Text } from '@mantine/core';
import type { AlarmNotification } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { formatDateTime } from '../../../lib/format';
import { changesDevice, useAlarmChanges } from '../../../lib/live-alarms';
import { useDeviceAlarms } from '../api/get-device-alarms';
import { deviceHistoryKeys } from '../api/keys';
import { HISTORY_MESSAGES } from '../messages';
import { AlarmDetailsModal } from './AlarmDetailsModal';

/**
 * Alarmes: the device's alarms, newest first as the server lists them, with their details and acknowledgement (D6).
 * Live: an alarm of this device opening, ending or being acknowledged (anywhere) reloads the list (issue 11, item 5).
 */
export function AlarmsTab({ mac }: { mac: string }) {
  const alarms = useDeviceAlarms(mac);
  const queryClient = useQueryClient();
  useAlarmChanges((changes) => {
    if (changesDevice(changes, mac)) void queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.alarms(mac) });
  });
  const [selectedId, setSelectedId] = useState<string | null>(null);
  // Read from the list, so that the modal shows an acknowledgement as soon as it is saved.
  const selected = alarms.data?.find((alarm) => alarm._id === selectedId) ?? null;

  const columns: DataTableColumn<AlarmNotification>[] = [
    { key: 'date', header: 'Data de ocorrência', render: (alarm) => formatDateTime(alarm.date) },
    { key: 'type', header: 'Tipo', render: (alarm) => alarm.type_formatted },
    { key: 'message', header: 'Mensagem', render: (alarm) => alarm.message },
    { key: 'temperature', header: 'Temperatura (mín-máx)', render: (alarm) => alarm.temperature_formatted },
    { key: 'humidity', header: 'Umidade (mín-máx)', render: (alarm) => alarm.humidity_formatted },
    { key: 'acknowledged', header: 'Reconhecido?', render: (alarm) => alarm.acknowledge_formatted },
    { key: 'active', header: 'Ativo?', render: (alarm) => alarm.active_formatted },
    {
      key: 'actions',
      header: 'Ações',
      render: (alarm) => (
        <Button size="xs" variant="light" onClick={() => setSelectedId(alarm._id)}>
          Detalhes do alarme
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      {alarms.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {HISTORY_MESSAGES.alarmsLoadError}
        </Alert>
      )}
      <DataTable
        rows={alarms.data ?? []}
        columns={columns}
        rowKey={(alarm) => alarm._id}
        emptyText={HISTORY_MESSAGES.empty}
        loading={alarms.isPending && !alarms.isError}
        renderCards={(page) => <AlarmCards alarms={page} onDetails={setSelectedId} />}
      />
      <AlarmDetailsModal mac={mac} alarm={selected} onClose={() => setSelectedId(null)} />
    </Stack>
  );
}

function Line({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Text size="sm">
      <Text span size="sm" c="dimmed">
        {label}:{' '}
      </Text>
      {children}
    </Text>
  );
}

/**
 * Alarmes on a phone: one card per alarm instead of a table scrolled sideways, whose "Detalhes do alarme" (where an
 * alarm is acknowledged) sat off screen. The same fields as the table's columns.
 */
function AlarmCards({ alarms, onDetails }: { alarms: readonly AlarmNotification[]; onDetails: (id: string) => void }) {
  return (
    <Stack gap="sm" data-testid="alarm-cards">
      {alarms.map((alarm) => (
        <Card key={alarm._id} withBorder radius="md" padding="sm" data-testid="alarm-card">
          <Stack gap={4}>
            <Group justify="space-between" wrap="nowrap" gap="xs">
              <Text fw={700}>{alarm.type_formatted}</Text>
              <Badge color={alarm.active ? 'red' : 'gray'} variant="light" style={{ flexShrink: 0 }}>
                {alarm.active ? 'Ativo' : 'Encerrado'}
              </Badge>
            </Group>
            <Text size="xs" c="dimmed">
              {formatDateTime(alarm.date)}
            </Text>
            <Text size="sm">{alarm.message}</Text>
            <Line label="Temperatura (mín-máx)">{alarm.temperature_formatted}</Line>
            <Line label="Umidade (mín-máx)">{alarm.humidity_formatted}</Line>
            <Line label="Reconhecido">{alarm.acknowledge_formatted}</Line>
            <Button size="xs" variant="light" mt={4} onClick={() => onDetails(alarm._id)}>
              Detalhes do alarme
            </Button>
          </Stack>
        </Card>
      ))}
    </Stack>
  );
}
