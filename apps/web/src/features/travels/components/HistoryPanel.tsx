import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import type { TravelDevice, TravelReading } from '@sentinela/contract';
import { IconAlertCircle, IconMapPin } from '@tabler/icons-react';
import { useMemo } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { formatHumidity, formatShortDateTime, formatTemperature } from '../../../lib/format';
import { ExportMenu } from '../../../components/report-export/ExportControls';
import { useTravelDeviceHistory, type TravelAccess } from '../api/get-device-history';
import { TRAVEL_MESSAGES } from '../messages';

interface HistoryPanelProps {
  /** The travel, and how its readings are reached (by id, or through its tracking code: ADR 72). */
  access: TravelAccess;
  device: TravelDevice;
  /** "Localização": centres the map on the reading (hidden on /localizator). */
  onLocate?: (reading: TravelReading) => void;
}

const time = (reading: TravelReading) => Date.parse(reading.createdAt);

/** Histórico of a device within a travel (T4): its readings, newest first. */
export function HistoryPanel({ access, device, onLocate }: HistoryPanelProps) {
  const history = useTravelDeviceHistory(access, device.mac);
  const rows = useMemo(() => [...(history.data ?? [])].sort((a, b) => time(b) - time(a)), [history.data]);

  const columns = useMemo<DataTableColumn<TravelReading>[]>(() => {
    const list: DataTableColumn<TravelReading>[] = [
      { key: 'temperature', header: 'Temperatura', render: (r) => formatTemperature(r.temperature), sortValue: (r) => r.temperature },
      { key: 'humidity', header: 'Umidade', render: (r) => formatHumidity(r.humidity), sortValue: (r) => r.humidity },
      { key: 'createdAt', header: 'Data/Hora', render: (r) => formatShortDateTime(r.createdAt), sortValue: (r) => time(r) },
    ];
    if (onLocate) {
      list.push({
        key: 'location',
        header: 'Ações',
        render: (r) =>
          r.lat !== null && r.lng !== null ? (
            <Button size="compact-sm" variant="light" leftSection={<IconMapPin size={14} />} onClick={() => onLocate(r)}>
              Localização
            </Button>
          ) : (
            <Text size="sm" c="dimmed">
              Sem posição
            </Text>
          ),
      });
    }
    return list;
  }, [onLocate]);

  return (
    <Stack gap="sm" data-testid="history-panel">
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <div>
          <Title order={3} size="h4">
            {device.name}
          </Title>
          <Text size="sm" c="dimmed" ff="monospace">
            {device.mac}
          </Text>
        </div>
        <ExportMenu target={{ kind: 'travel-device-history', travelId: access.travelId, mac: device.mac, code: access.code }} />
      </Group>
      {history.isError ? (
        <Alert color="red" title={TRAVEL_MESSAGES.errorTitle} icon={<IconAlertCircle />}>
          {TRAVEL_MESSAGES.readingsLoadError}
        </Alert>
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r) => `${r.createdAt}|${r.mac}`}
          emptyText={TRAVEL_MESSAGES.readingsEmpty}
          loading={history.isPending}
          pageSize={10}
        />
      )}
    </Stack>
  );
}
