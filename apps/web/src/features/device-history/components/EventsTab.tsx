import { Alert, Stack } from '@mantine/core';
import type { z } from 'zod';
import type { DeviceEvent } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { useDeviceEvents } from '../api/get-device-events';
import { HISTORY_MESSAGES } from '../messages';

type Event = z.infer<typeof DeviceEvent>;

const text = (value: string | null | undefined) => (value ? value : EMPTY);
const upper = (value: string | null | undefined) => (value ? value.toUpperCase() : EMPTY);

const COLUMNS: DataTableColumn<Event>[] = [
  { key: 'created_at', header: 'Data/Hora', render: (event) => formatDateTime(event.created_at) },
  { key: 'type', header: 'Tipo', render: (event) => event.type_formatted },
  { key: 'message', header: 'Mensagem', render: (event) => event.message },
  { key: 'user', header: 'Responsável', render: (event) => text(event.user?.name) },
  { key: 'client', header: 'Cliente', render: (event) => upper(event.client) },
  { key: 'clientVersion', header: 'Versão do cliente', render: (event) => text(event.clientVersion) },
  { key: 'clientOs', header: 'Sistema operacional', render: (event) => upper(event.clientOs) },
  { key: 'apiVersion', header: 'Versão da API', render: (event) => text(event.apiVersion) },
];

/** Eventos: every change made to the device, with who made it and from which client (D7). */
export function EventsTab({ mac }: { mac: string }) {
  const events = useDeviceEvents(mac);
  return (
    <Stack gap="sm">
      {events.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {HISTORY_MESSAGES.eventsLoadError}
        </Alert>
      )}
      <DataTable
        rows={events.data ?? []}
        columns={COLUMNS}
        rowKey={(event) => event._id}
        emptyText={HISTORY_MESSAGES.empty}
        loading={events.isPending && !events.isError}
      />
    </Stack>
  );
}
