import { notifications } from '@mantine/notifications';
import { MSG } from '@sentinela/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Outlet, useMatches, useNavigate } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { paths } from '../lib/paths';
import { onSessionExpired } from '../lib/session';

/** Root of every route: reacts to an expired session (P2) wherever the user is, and titles the tab. */
export function AppRoot() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const matches = useMatches();
  usePageTitle(matches.map((m) => (m.handle as { title?: string } | undefined)?.title).findLast(Boolean));

  useEffect(
    () =>
      onSessionExpired(() => {
        notifications.show({ id: 'session-expired', color: 'red', message: MSG.sessionExpired, autoClose: 10_000 });
        void navigate(paths.login, { replace: true });
        queryClient.clear();
      }),
    [navigate, queryClient],
  );

  return <Outlet />;
}
