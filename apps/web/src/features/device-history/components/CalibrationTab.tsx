import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { CALIBRATION_MESSAGES as M, formatCalendarDate, formatDecimal, type Calibration } from '@sentinela/contract';
import { IconAlertCircle, IconDownload, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { downloadCertificate, useCalibrations } from '../api/calibrations';
import { AddCalibrationModal } from './AddCalibrationModal';

const STATUS: Record<Calibration['status'], { color: string; label: string }> = {
  valid: { color: 'teal', label: 'Válido' },
  due: { color: 'yellow', label: 'Vence em breve' },
  overdue: { color: 'red', label: 'Vencido' },
};

/** "Calibração" (X12): the device's certificates, the one in force first, each downloadable; a new one added here. */
export function CalibrationTab({ deviceId, deviceName }: { deviceId: string; deviceName: string | null }) {
  const calibrations = useCalibrations(deviceId, true);
  const [adding, setAdding] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = (calibration: Calibration) => {
    setDownloading(calibration._id);
    downloadCertificate(calibration)
      .catch((error: unknown) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, M.downloadFailed) }))
      .finally(() => setDownloading(null));
  };

  const columns: DataTableColumn<Calibration>[] = [
    {
      key: 'certificate_number',
      header: 'Certificado',
      render: (c) => (
        <Stack gap={2} align="flex-start">
          <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
            {c.certificate_number}
          </Text>
          {c.current && (
            <Badge size="xs" variant="outline" style={{ textTransform: 'none' }}>
              Em vigor
            </Badge>
          )}
        </Stack>
      ),
    },
    { key: 'laboratory', header: 'Laboratório', render: (c) => <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{c.laboratory}</Text> },
    { key: 'calibrated_at', header: 'Calibrado em', render: (c) => <NoWrap>{formatCalendarDate(c.calibrated_at)}</NoWrap>, sortValue: (c) => c.calibrated_at },
    { key: 'due_at', header: 'Válido até', render: (c) => <NoWrap>{formatCalendarDate(c.due_at)}</NoWrap>, sortValue: (c) => c.due_at },
    {
      key: 'status',
      header: 'Situação',
      render: (c) => (
        <Badge color={STATUS[c.status].color} variant="light" style={{ textTransform: 'none' }}>
          {STATUS[c.status].label}
        </Badge>
      ),
    },
    { key: 'points', header: 'Pontos', render: (c) => (c.points.length > 0 ? c.points.map((p) => `${formatDecimal(p.reference)} → ${formatDecimal(p.measured)}`).join('; ') : '--') },
    {
      key: 'actions',
      header: 'Ações',
      render: (c) => (
        <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} loading={downloading === c._id} onClick={() => download(c)}>
          Baixar PDF
        </Button>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="center">
        <Text size="sm" c="dimmed" style={{ flex: '1 1 240px' }}>
          Certificados de calibração do sensor. O mais recente está em vigor e aparece nos relatórios.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
          Adicionar certificado
        </Button>
      </Group>
      {calibrations.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(calibrations.error, M.listFailed)}
        </Alert>
      )}
      <DataTable
        rows={calibrations.data ?? []}
        columns={columns}
        rowKey={(c) => c._id}
        loading={calibrations.isPending}
        emptyText="Nenhum certificado de calibração registrado."
        searchText={(c) => `${c.certificate_number} ${c.laboratory}`}
        searchPlaceholder="Pesquisar certificados"
      />
      <AddCalibrationModal deviceId={deviceId} deviceName={deviceName} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}
