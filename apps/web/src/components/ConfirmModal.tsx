import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';

interface ConfirmModalProps {
  opened: boolean;
  title: string;
  children: ReactNode;
  /** Fields asked with the question (a reason for change in GxP mode), below it. */
  extra?: ReactNode;
  confirmLabel: string;
  /** Red for what takes something away (Desativar). */
  danger?: boolean;
  loading?: boolean;
  onConfirm: () => void;
  onClose: () => void;
}

/** A yes/no question that stays open, busy, until the action it confirms has answered. */
export function ConfirmModal({ opened, title, children, extra, confirmLabel, danger = false, loading = false, onConfirm, onClose }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={loading ? () => {} : onClose} title={title} centered closeOnClickOutside={!loading}>
      <Stack>
        <Text size="sm">{children}</Text>
        {extra}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={loading}>
            Cancelar
          </Button>
          <Button color={danger ? 'red' : undefined} onClick={onConfirm} loading={loading} data-autofocus>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
