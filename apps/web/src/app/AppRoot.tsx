import { notifications } from '@mantine/notifications';
import { MSG } from '@sentinela/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { paths } from '../lib/paths';
import { getSession, onSessionChange, onSessionExpired } from '../lib/session';
import { RouteTitleContext } from './route-title';

const EXPIRED_NOTICE = 'session-expired';

/** Root of every route: reacts to an expired session (P2) wherever the user is, and titles the tab. */
export function AppRoot() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  usePageTitle(useContext(RouteTitleContext));

  useEffect(
    () =>
      onSessionExpired(() => {
        // It stays until closed or the next sign-in: whoever comes back to the tab later must still learn why they
        // are on /login.
        notifications.show({ id: EXPIRED_NOTICE, color: 'red', message: MSG.sessionExpired, autoClose: false });
        void navigate(paths.login, { replace: true });
        queryClient.clear();
      }),
    [navigate, queryClient],
  );
  useEffect(
    () =>
      onSessionChange(() => {
        if (getSession()) notifications.hide(EXPIRED_NOTICE);
      }),
    [],
  );

  return <Outlet />;
}
