import { Alert, Button, Stack, Text } from '@mantine/core';
import { EMAIL_CHANGE_MESSAGES, pendingEmailText } from '@sentinela/contract';
import { IconMailForward } from '@tabler/icons-react';
import { errorMessage } from '../../lib/api-client';

interface PendingEmailAlertProps {
  email: string;
  onCancel: () => void;
  cancelling: boolean;
  /** The refusal of the last cancel, if any. */
  error?: Error | null;
}

/**
 * "Aguardando confirmação de novo e-mail: x" (ADR 82), with "Cancelar alteração": shared by Editar usuário and the
 * Perfil, the two screens where a new e-mail waits for the link sent to it.
 */
export function PendingEmailAlert({ email, onCancel, cancelling, error }: PendingEmailAlertProps) {
  return (
    <Alert color="blue" icon={<IconMailForward />} title={pendingEmailText(email)}>
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{EMAIL_CHANGE_MESSAGES.pendingHelp}</Text>
        <Button size="xs" variant="default" loading={cancelling} onClick={onCancel}>
          {EMAIL_CHANGE_MESSAGES.cancel}
        </Button>
        {error && (
          <Text size="sm" c="red">
            {errorMessage(error, EMAIL_CHANGE_MESSAGES.noneToCancel)}
          </Text>
        )}
      </Stack>
    </Alert>
  );
}
