import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { IconArrowLeft, IconDownload } from '@tabler/icons-react';
import { formatMegabytes, type Firmware } from '@sentinela/contract';
import { formatDateTime } from '../../../lib/format';
import { FileChecksum } from './FileChecksum';
import { NotesEditor } from './NotesEditor';

interface ViewNotesModalProps {
  firmware: Firmware | null;
  opened: boolean;
  onClose: () => void;
  onDownload: (firmware: Firmware) => void;
  downloading: boolean;
}

/** Ver Notas (M1): the version's form, read-only, with its file's checksum and a Voltar button. */
export function ViewNotesModal({ firmware, opened, onClose, onDownload, downloading }: ViewNotesModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Notas da versão" closeOnClickOutside={false} closeOnEscape={false} withCloseButton={false} centered size="lg">
      {firmware && (
        <Stack>
          <TextInput label="Versão" value={firmware.version} readOnly />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Notas da versão
            </Text>
            {firmware.notes ? (
              <NotesEditor value={firmware.notes} readOnly />
            ) : (
              <Text size="sm" c="dimmed">
                Nenhuma nota registrada para esta versão.
              </Text>
            )}
          </div>
          <Stack gap={4}>
            <Text size="sm" fw={500}>
              Arquivo
            </Text>
            <Text size="sm" style={{ wordBreak: 'break-all' }}>
              {firmware.file_name} · {formatMegabytes(firmware.file_size)} · enviado em {formatDateTime(firmware.created_at)}
            </Text>
            <Text size="xs" c="dimmed">
              SHA-256 (compare com o do arquivo baixado):
            </Text>
            <FileChecksum sha256={firmware.sha256} />
          </Stack>
          <Group justify="space-between">
            <Button variant="default" leftSection={<IconArrowLeft size={16} />} onClick={onClose}>
              Voltar
            </Button>
            <Button variant="light" leftSection={<IconDownload size={16} />} loading={downloading} onClick={() => onDownload(firmware)}>
              Baixar Arquivo
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
