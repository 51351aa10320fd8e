import { Alert, Button, Loader, Stack } from '@mantine/core';
import { ACCOUNT_MESSAGES } from '@sentinela/contract';
import { IconAlertCircle, IconCircleCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { paths, SIGNED_IN_HOME } from '../../../lib/paths';
import { useSession } from '../../../lib/session';
import { verifyEmail } from '../api/accounts';
import { AuthCard } from './AuthCard';

/**
 * /confirmation/{token} (A5): confirms the e-mail once. A query, not an effect: the token is spent by the first
 * call, and a second mount (React's strict mode, a re-render) must read that answer rather than spend it again.
 */
export function ConfirmationPage() {
  const { token = '' } = useParams();
  const session = useSession();
  const result = useQuery({
    queryKey: ['verify-email', token],
    queryFn: () => verifyEmail(token),
    retry: false,
    staleTime: Infinity,
    gcTime: Infinity,
  });

  return (
    <AuthCard title="Confirmação de e-mail">
      {result.isPending && (
        <Stack align="center">
          <Loader aria-label="Confirmando" />
        </Stack>
      )}
      {result.isSuccess && (
        <Alert color="green" title="Sucesso!" icon={<IconCircleCheck />}>
          {result.data.message}
        </Alert>
      )}
      {result.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {result.error instanceof ApiError && result.error.status === 404 ? ACCOUNT_MESSAGES.userNotFound : errorMessage(result.error, ACCOUNT_MESSAGES.userNotFound)}
        </Alert>
      )}
      {!result.isPending && (
        <Button component={Link} to={session ? SIGNED_IN_HOME : paths.login}>
          {session ? 'Ir para Meus Dispositivos' : ACCOUNT_MESSAGES.goToLogin}
        </Button>
      )}
    </AuthCard>
  );
}
