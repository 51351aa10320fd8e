import { Button, Stack, Text, Title } from '@mantine/core';
import { can, MSG, type Permission } from '@sentinela/contract';
import { useEffect } from 'react';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { paths, SIGNED_IN_HOME } from '../lib/paths';
import { expireSession, isSessionExpired, SignedInContext, useSession } from '../lib/session';

/** Protected routes (P5): without a session, go to /login. */
export function RequireSession() {
  const session = useSession();
  const { pathname } = useLocation();

  // A window that closed while the tab sat idle ends on the next navigation, not only on the next request.
  useEffect(() => {
    if (isSessionExpired()) expireSession();
  }, [pathname]);

  if (!session) return <Navigate to={paths.login} replace />;
  return (
    <SignedInContext value={session}>
      <Outlet />
    </SignedInContext>
  );
}

/** Signed-out screens such as /login: a signed-in user goes to /my-devices. */
export function RedirectIfSignedIn() {
  const session = useSession();
  return session ? <Navigate to={SIGNED_IN_HOME} replace /> : <Outlet />;
}

/** `/`: until the landing page (A1) exists, visitors go to /login and signed-in users to /my-devices. */
export function HomeRedirect() {
  const session = useSession();
  return <Navigate to={session ? SIGNED_IN_HOME : paths.login} replace />;
}

/**
 * Screens a profile may not use say so instead of showing an empty shell. This only spares a pointless
 * page: the server refuses the data anyway (P5).
 */
export function RequirePermission({ permission }: { permission: Permission }) {
  const session = useSession();
  if (session && can(session.user.profile._id, permission)) return <Outlet />;
  return (
    <Stack align="center" mt="xl" gap="md">
      <Title order={2}>Acesso negado</Title>
      <Text c="dimmed">{MSG.forbidden}</Text>
      <Button component={Link} to={SIGNED_IN_HOME}>
        Ir para Meus Dispositivos
      </Button>
    </Stack>
  );
}
