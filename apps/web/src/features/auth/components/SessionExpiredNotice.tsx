import { Alert } from '@mantine/core';
import { MSG } from '@sentinela/contract';
import { IconClockExclamation } from '@tabler/icons-react';
import { dismissExpiredNotice } from '../../../lib/session';

/** "Sua sessão expirou…" (P2) above the login form; loaded only when a session of this tab expired (ADR 0040). */
export function SessionExpiredNotice() {
  return (
    <Alert color="yellow" icon={<IconClockExclamation />} withCloseButton closeButtonLabel="Fechar aviso" onClose={dismissExpiredNotice} role="alert">
      {MSG.sessionExpired}
    </Alert>
  );
}
