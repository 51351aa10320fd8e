import { Badge, Center, Group, Loader, Stack, Text } from '@mantine/core';
import type { Device } from '@sentinela/contract';
import { lazy, Suspense, useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import type { ColourMemory } from '../../../components/device-state/colour-state';
import { silenceOf, useNow } from '../../../components/device-state/freshness';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { DeviceActions } from './DeviceActions';
import { HistoricCountCell } from './HistoricCountCell';

// The rename form (react-hook-form, zod's resolver, the modal) loads when first asked for, not with the list (ADR 0040).
const RenameDeviceModal = lazy(() => import('./RenameDeviceModal').then((module) => ({ default: module.RenameDeviceModal })));
// The calibration badge (X12) loads only for a list that has a device with a certificate: most lists have none.
const CalibrationBadge = lazy(() => import('../../../components/CalibrationBadge').then((module) => ({ default: module.CalibrationBadge })));
// The phone cards load on phones only: a desktop's first load does not carry them (ADR 0049).
const DeviceCards = lazy(() => import('./DeviceCards').then((module) => ({ default: module.DeviceCards })));

/** Navigation state the device-history screen reads its header from (spec 001). */
export interface DeviceHistoryState {
  name: string;
  model: string | null;
}

interface DevicesTableProps {
  devices: readonly Device[];
  loading: boolean;
  canRename: boolean;
  searchPlaceholder?: string;
}

const searchText = (device: Device) => `${device.name} ${device.model ?? ''} ${device.mac}`;
const timeOf = (iso: string | null) => (iso ? Date.parse(iso) : null);

/**
 * The devices table of "Meus Dispositivos" (D1), shared with the client devices screen (D2); on phones, one card per
 * device instead (ADR 0049).
 */
export function DevicesTable({ devices, loading, canRename, searchPlaceholder = 'Pesquisar dispositivos' }: DevicesTableProps) {
  const [renaming, setRenaming] = useState<Device | null>(null);
  // Mounted from the first rename on, so the modal keeps its closing transition.
  const [renameAsked, setRenameAsked] = useState(false);
  if (renaming && !renameAsked) setRenameAsked(true);
  const now = useNow();
  // The cards' earlier colour states, as long as the screen lives (a reading equal to a limit keeps the state); made
  // by the cards' chunk, so desktops do not load it.
  const [memory] = useState<{ current?: ColourMemory }>(() => ({}));

  const countCell = (device: Device) => <HistoricCountCell mac={device.mac} />;
  const columns: DataTableColumn<Device>[] = [
    {
      key: 'name',
      header: 'Nome',
      render: (device) => (
        <Stack gap={2} align="flex-start">
          <span>{device.name}</span>
          {device.calibration_due_at && (
            <Suspense fallback={null}>
              <CalibrationBadge dueAt={device.calibration_due_at} size="xs" />
            </Suspense>
          )}
        </Stack>
      ),
    },
    { key: 'model', header: 'Número de série', render: (device) => device.model || EMPTY },
    { key: 'mac', header: 'Endereço Mac', render: (device) => device.mac },
    {
      key: 'lastSyncDate',
      header: 'Último sincronismo',
      render: (device) => <LastSync device={device} now={now} />,
      sortValue: (device) => timeOf(device.lastSyncDate),
    },
    { key: 'count', header: 'Qtd de registros', render: countCell },
    {
      key: 'created_at',
      header: 'Data de criação',
      render: (device) => formatDateTime(device.created_at),
      sortValue: (device) => timeOf(device.created_at),
    },
    {
      key: 'actions',
      header: 'Ações',
      render: (device) => (
        <Group gap="xs" wrap="nowrap">
          <DeviceActions device={device} onRename={canRename ? setRenaming : null} />
        </Group>
      ),
    },
  ];

  return (
    <>
      <DataTable
        rows={devices}
        columns={columns}
        rowKey={(device) => device._id}
        searchText={searchText}
        searchPlaceholder={searchPlaceholder}
        emptyText="Nada encontrado..."
        loading={loading}
        renderCards={(rows) => (
          <Suspense
            fallback={
              <Center py="md">
                <Loader size="sm" aria-label="Carregando..." />
              </Center>
            }
          >
            <DeviceCards devices={rows} memory={memory} now={now} onRename={canRename ? setRenaming : null} countCell={countCell} />
          </Suspense>
        )}
      />
      {renameAsked && (
        <Suspense fallback={null}>
          <RenameDeviceModal device={renaming} onClose={() => setRenaming(null)} />
        </Suspense>
      )}
    </>
  );
}

/** The last sync, and under it how long the device has been silent once it has gone quiet (ADR 0035). */
function LastSync({ device, now }: { device: Device; now: number }) {
  const silence = silenceOf(device.lastSyncDate, device.expectedIntervalSeconds, now);
  if (!silence) return formatDateTime(device.lastSyncDate);
  return (
    <Stack gap={2} align="flex-start">
      <Text size="sm">{formatDateTime(device.lastSyncDate)}</Text>
      {/* Wrapping, in the sentence's own case: a badge's single upper-case line ran past the column ("SEM DADOS HÁ 4…"). */}
      <Badge color="gray" variant="light" tt="none" h="auto" py={2} styles={{ label: { whiteSpace: 'normal' } }} data-testid="device-silence">
        {silence.label}
      </Badge>
    </Stack>
  );
}
