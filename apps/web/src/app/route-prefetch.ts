import { can, type Permission, type SessionUser } from '@sentinela/contract';
import type { QueryClient } from '@tanstack/react-query';
import { myDevicesQueryOptions } from '../features/devices/api/list-my-devices';
import { travelsQueryOptions } from '../features/travels/api/list-travels';
import type { FetchOptions } from '../lib/api-client';
import { paths } from '../lib/paths';
import type { Session } from '../lib/session';
import { standingQueryOptions } from '../lib/subscription-standing';
import { loadSignedInLayout } from './layout/LazySignedInLayout';
import { loadMyDevicesPage, loadTravelsPage } from './pages';

/** Who the prefetch asks for: a stored session, or sign-in's answer before the session is stored (no enterprise yet). */
export interface PrefetchIdentity {
  user: Pick<SessionUser, '_id' | 'profile'>;
  enterprise?: Session['enterprise'];
  /** The token sign-in has just received; the stored session's by default. */
  auth?: FetchOptions['auth'];
}

interface ScreenPrefetch {
  permission: Permission;
  load: () => Promise<unknown>;
  data: (queryClient: QueryClient, identity: PrefetchIdentity) => Promise<void>;
}

/**
 * The screens whose first rows a person waits for (issue 27 target 9, ADR 0086): their chunk and their first request
 * start when the route is entered, all at once and beside the signed-in shell's chunk, instead of one after another
 * (shell, then screen, then the screen's request once rendered). The screen's own query reads the same key.
 * The query modules are part of the entry (a few hundred bytes, their schemas load beside the requests): as chunks of
 * their own, they waited behind the dozens of chunk requests in the browser's queue of six connections per host, and
 * their requests started as late as before.
 */
const SCREENS: Record<string, ScreenPrefetch> = {
  [paths.myDevices]: {
    permission: 'devices:read',
    load: loadMyDevicesPage,
    data: (queryClient, { user, auth }) => queryClient.prefetchQuery(myDevicesQueryOptions(user, auth)),
  },
  [paths.directions]: {
    permission: 'travels:read',
    load: loadTravelsPage,
    data: (queryClient) => queryClient.prefetchQuery(travelsQueryOptions()),
  },
};

/**
 * Starts, for a signed-in route being entered, the shell's and the screen's code, the screen's first request and the
 * subscription's standing (the shell's banner reads it on every screen of an enterprise). Safe to call again: the
 * modules load once, and a query in flight or still fresh is not asked again. Errors are left to the screen's own
 * query, which shows them as it always has.
 */
export function prefetchRoute(pathname: string, queryClient: QueryClient, identity: PrefetchIdentity): void {
  const screen = SCREENS[pathname];
  if (!screen || !can(identity.user.profile._id, screen.permission)) return;
  // The requests first: they then go out before the chunks, which take every connection of the host for a while.
  void screen.data(queryClient, identity);
  if (identity.enterprise?._id && identity.auth === undefined) void queryClient.prefetchQuery(standingQueryOptions());
  void loadSignedInLayout();
  void screen.load();
}
