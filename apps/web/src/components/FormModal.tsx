import { Alert, Button, Group, Modal, Stack, type ModalProps } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import type { ReactNode } from 'react';

interface FormModalProps {
  opened: boolean;
  title: string;
  /** Cancelar, and the only way out besides the work done: no close button, no Escape, no click outside. */
  onClose: () => void;
  onSubmit: (event: React.FormEvent) => void;
  submitLabel: string;
  /** While the request is on its way: the submit button spins and Cancelar waits. */
  pending: boolean;
  /** What went wrong (a check of the form or the server's answer), above the fields. */
  error: string | null;
  size?: ModalProps['size'];
  /** What the modal shows instead of the form once it is done (e.g. a key shown this once), with its own buttons. */
  done?: ReactNode;
  doneTitle?: string;
  children: ReactNode;
}

/** A modal holding one form that closes only by its buttons: the error above the fields, Cancelar and submit below. */
export function FormModal({ opened, title, onClose, onSubmit, submitLabel, pending, error, size, done, doneTitle, children }: FormModalProps) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={done ? (doneTitle ?? title) : title}
      closeOnClickOutside={false}
      closeOnEscape={false}
      withCloseButton={false}
      centered
      size={size}
    >
      {done ?? (
        <form onSubmit={onSubmit} noValidate>
          <Stack>
            {error !== null && (
              <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
                {error}
              </Alert>
            )}
            {children}
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose} disabled={pending}>
                Cancelar
              </Button>
              <Button type="submit" loading={pending}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
