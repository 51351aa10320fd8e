import { useQueryClient } from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import { Outlet, useNavigate } from 'react-router';
import { usePageTitle } from '../lib/page-title';
import { paths } from '../lib/paths';
import { onSessionExpired } from '../lib/session';
import { RouteTitleContext } from './route-title';

/** Root of every route: reacts to an expired session (P2) wherever the user is, and titles the tab. */
export function AppRoot() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  usePageTitle(useContext(RouteTitleContext));

  useEffect(
    () =>
      onSessionExpired(() => {
        // /login says why (lib/session.ts keeps the notice for a reloaded or reopened tab too): an alert on the page,
        // not a toast over the header that nobody can read on a phone.
        void navigate(paths.login, { replace: true });
        queryClient.clear();
      }),
    [navigate, queryClient],
  );

  return <Outlet />;
}
