import type { OkResponse } from '@sentinela/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { apiRequest } from '../../../lib/api-client';
import { paths } from '../../../lib/paths';
import { clearSession, getSession } from '../../../lib/session';

/** POST /api/logout: revokes the token on the server. */
export function logout(): Promise<z.infer<typeof OkResponse>> {
  return apiRequest('/api/logout', { method: 'POST', schema: () => import('./schemas').then((schemas) => schemas.OkResponse) });
}

/** Sair: revoke the token (best effort), drop the session and cached data, go to /login. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useCallback(async () => {
    if (getSession()) {
      try {
        await logout();
      } catch {
        // The session ends on this tab either way; the server's window closes the token too.
      }
    }
    clearSession();
    queryClient.clear();
    await navigate(paths.login, { replace: true });
  }, [navigate, queryClient]);
}
