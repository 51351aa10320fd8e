import { Alert, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { FIRMWARE_MESSAGES as M, FIRMWARE_VERSION_PATTERN, MSG } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { UploadFileField, UploadProgress } from '../../../components/form/UploadFileField';
import { errorMessage } from '../../../lib/api-client';
import { useAddFirmware, useFirmwareLimits } from '../api/firmwares';
import { isAboveCurrent, maskVersion } from '../version-mask';
import { NotesEditor } from './NotesEditor';

interface AddFirmwareForm {
  version: string;
  notes: string;
  file: File | null;
}

interface AddFirmwareModalProps {
  opened: boolean;
  onClose: () => void;
  /** The current version (the list's first), which the new one must pass. */
  current: string | null;
}

/** "Nova versão" (M1): version 9.9.9 above the current one, notes, the file. Closes only by its buttons. */
export function AddFirmwareModal({ opened, onClose, current }: AddFirmwareModalProps) {
  const add = useAddFirmware();
  const limits = useFirmwareLimits();
  const [progress, setProgress] = useState<number | null>(null);
  // Remounts the editor empty after each save or cancel.
  const [editorKey, setEditorKey] = useState(0);
  const maxBytes = limits.data?.max_bytes ?? null;
  const { control, handleSubmit, reset, formState: { errors } } = useForm<AddFirmwareForm>({
    defaultValues: { version: '', notes: '', file: null },
  });

  const close = () => {
    reset();
    add.reset();
    setProgress(null);
    setEditorKey((key) => key + 1);
    onClose();
  };

  const onSubmit = handleSubmit(({ version, notes, file }) => {
    if (!file) return;
    setProgress(0);
    add.mutate(
      { version, notes, file, onProgress: setProgress },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: M.saved });
          close();
        },
        onSettled: () => setProgress(null),
      },
    );
  });

  return (
    <Modal opened={opened} onClose={close} title="Nova versão" closeOnClickOutside={false} closeOnEscape={false} withCloseButton={false} centered size="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          {add.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(add.error, M.saveFailed)}
            </Alert>
          )}
          <Controller
            control={control}
            name="version"
            rules={{
              validate: (value) => {
                if (!value) return M.versionRequired;
                if (!FIRMWARE_VERSION_PATTERN.test(value)) return M.versionFormat;
                if (!isAboveCurrent(value, current)) return M.versionNotHigher;
                return true;
              },
            }}
            render={({ field }) => (
              <TextInput
                label="Versão"
                placeholder="9.9.9"
                description={current ? `Versão atual: ${current}` : 'Nenhuma versão registrada ainda.'}
                inputMode="numeric"
                autoComplete="off"
                withAsterisk
                error={errors.version?.message}
                {...field}
                onChange={(event) => field.onChange(maskVersion(event.currentTarget.value))}
              />
            )}
          />
          <div>
            <Text size="sm" fw={500} mb={4}>
              Notas da versão
            </Text>
            <Controller
              control={control}
              name="notes"
              render={({ field }) => <NotesEditor key={editorKey} value="" onChange={field.onChange} />}
            />
          </div>
          <UploadFileField control={control} name="file" label="Arquivo" placeholder="Selecione o arquivo do firmware" maxBytes={maxBytes} messages={M} />
          <UploadProgress progress={progress} label="Envio do arquivo" />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={add.isPending}>
              Cancelar
            </Button>
            <Button type="submit" loading={add.isPending}>
              Salvar
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
