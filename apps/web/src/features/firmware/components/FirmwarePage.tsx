import '../styles';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FIRMWARE_MESSAGES as M, type Firmware } from '@sentinela/contract';
import { IconAlertCircle, IconDownload, IconNotes, IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { CardLine } from '../../../components/CardLine';
import { ListCard, ListCards } from '../../../components/ListCard';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { downloadFirmware, useFirmwares } from '../api/firmwares';
import { AddFirmwareModal } from './AddFirmwareModal';
import { FileChecksum } from './FileChecksum';
import { ViewNotesModal } from './ViewNotesModal';

/** /firmware "Firmwares" (M1): the current version, every version with its file and notes, and a new version. */
export function FirmwarePage() {
  const firmwares = useFirmwares();
  const list = firmwares.data ?? [];
  const current = list[0]?.version ?? null;
  const [adding, setAdding] = useState(false);
  // The version stays set while the modal closes, so its content does not vanish under the animation.
  const [viewed, setViewed] = useState<Firmware | null>(null);
  const [viewing, setViewing] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = (firmware: Firmware) => {
    setDownloading(firmware._id);
    downloadFirmware(firmware)
      .catch((error: unknown) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, M.downloadFailed) }))
      .finally(() => setDownloading(null));
  };

  // Ações of a row and of its card on a phone (one function for both); the row keeps them on one line, a card wraps them.
  const actionsOf = (f: Firmware) => (
    <>
      <Button size="xs" variant="light" leftSection={<IconDownload size={14} />} loading={downloading === f._id} onClick={() => download(f)}>
        Baixar Arquivo
      </Button>
      <Button
        size="xs"
        variant="default"
        leftSection={<IconNotes size={14} />}
        onClick={() => {
          setViewed(f);
          setViewing(true);
        }}
      >
        Ver Notas
      </Button>
    </>
  );

  const columns: DataTableColumn<Firmware>[] = [
    { key: 'version', header: 'Versão', render: (f) => <Text fw={600}>{f.version}</Text> },
    {
      key: 'created_at',
      header: 'Data da Atualização',
      render: (f) => <NoWrap>{formatDateTime(f.created_at)}</NoWrap>,
      sortValue: (f) => Date.parse(f.created_at),
    },
    { key: 'sha256', header: 'SHA-256', render: (f) => <FileChecksum sha256={f.sha256} short /> },
    {
      key: 'actions',
      header: 'Ações',
      render: (f) => (
        <Group gap="xs" wrap="nowrap">
          {actionsOf(f)}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Title order={2}>Firmwares</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)} disabled={firmwares.isPending}>
          Nova versão
        </Button>
      </Group>
      <Card withBorder padding="md" radius="md" maw={360}>
        <Text size="sm" c="dimmed">
          Versão atual
        </Text>
        <Text size="xl" fw={700} data-testid="current-version">
          {firmwares.isPending && !firmwares.isError ? '…' : (current ?? EMPTY)}
        </Text>
      </Card>
      {firmwares.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(firmwares.error, M.listFailed)}
        </Alert>
      )}
      <DataTable
        rows={list}
        columns={columns}
        rowKey={(f) => f._id}
        searchText={(f) => `${f.version} ${f.file_name} ${f.sha256}`}
        searchPlaceholder="Pesquisar versões"
        emptyText={firmwares.isError ? M.listFailed : 'Nenhum versão registrada'}
        loading={firmwares.isPending && !firmwares.isError}
        renderCards={(rows) => <FirmwareCards firmwares={rows} actions={actionsOf} />}
      />
      <AddFirmwareModal opened={adding} onClose={() => setAdding(false)} current={current} />
      <ViewNotesModal
        firmware={viewed}
        opened={viewing}
        onClose={() => setViewing(false)}
        onDownload={download}
        downloading={viewed !== null && downloading === viewed._id}
      />
    </Stack>
  );
}

/**
 * Firmwares on a phone: one card per version instead of a table scrolled sideways, whose Baixar Arquivo and Ver Notas
 * sat off screen. The same fields as the table's columns and the same actions as its row.
 */
function FirmwareCards({ firmwares, actions }: { firmwares: readonly Firmware[]; actions: (firmware: Firmware) => ReactNode }) {
  return (
    <ListCards testId="firmware-cards">
      {firmwares.map((f) => (
        <ListCard key={f._id} testId="firmware-card">
          <CardLine label="Versão">
            <Text span fw={700} size="sm">
              {f.version}
            </Text>
          </CardLine>
          <CardLine label="Data da Atualização">{formatDateTime(f.created_at)}</CardLine>
          <Group gap={6} wrap="nowrap">
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              SHA-256:
            </Text>
            <FileChecksum sha256={f.sha256} short />
          </Group>
          <Group gap="xs" wrap="wrap">
            {actions(f)}
          </Group>
        </ListCard>
      ))}
    </ListCards>
  );
}
