import { Button, Stack, Text, Title } from '@mantine/core';
import { can, MSG, type Permission } from '@sentinela/contract';
import { Suspense, useEffect, useState, type ReactNode } from 'react';
import { PageFallback } from './layout/PageFallback';
import { Link, Navigate, Outlet, useLocation } from 'react-router';
import { paths, returnPath, SIGNED_IN_HOME } from '../lib/paths';
import { expireSession, isSessionExpired, SignedInContext, useSession } from '../lib/session';

/** Protected routes (P5): without a session, go to /login. */
export function RequireSession() {
  const session = useSession();
  const { pathname, search, hash } = useLocation();

  // A window that closed while the tab sat idle ends on the next navigation, not only on the next request.
  useEffect(() => {
    if (isSessionExpired()) expireSession();
  }, [pathname]);

  // Opened without a session: the login returns to this page. A session that ends here (Sair, expiry) does not.
  const [openedSignedOut] = useState(session === null);
  if (!session) return <Navigate to={paths.login} replace state={openedSignedOut ? { from: `${pathname}${search}${hash}` } : undefined} />;
  return (
    <SignedInContext value={session}>
      <Outlet />
    </SignedInContext>
  );
}

/** Signed-out screens such as /login: a signed-in user goes to /my-devices. */
export function RedirectIfSignedIn() {
  const session = useSession();
  const { state } = useLocation();
  return session ? <Navigate to={returnPath(state)} replace /> : <Outlet />;
}

/** `/` (A1): visitors see the landing page (`visitor`), signed-in users go to /my-devices. */
export function HomeRedirect({ visitor }: { visitor: ReactNode }) {
  const session = useSession();
  return session ? <Navigate to={SIGNED_IN_HOME} replace /> : <Suspense fallback={<PageFallback />}>{visitor}</Suspense>;
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
