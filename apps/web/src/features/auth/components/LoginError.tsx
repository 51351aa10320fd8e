import { Alert } from '@mantine/core';
import { MSG } from '@sentinela/contract';
import { IconAlertCircle } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';

/** The refusal of a sign-in ("Erro!" with the server's reason). Loaded when a sign-in fails (ADR 0040). */
export function LoginError({ error }: { error: unknown }) {
  return (
    <Alert color="red" title={MSG.loginError} icon={<IconAlertCircle />}>
      {errorMessage(error, MSG.internalError)}
    </Alert>
  );
}
