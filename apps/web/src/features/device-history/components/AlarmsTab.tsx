import { Alert, Button, Stack } from '@mantine/core';
import type { AlarmNotification } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
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
      />
      <AlarmDetailsModal mac={mac} alarm={selected} onClose={() => setSelectedId(null)} />
    </Stack>
  );
}
