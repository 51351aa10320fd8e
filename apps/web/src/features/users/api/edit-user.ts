import { SuccessMessageResponse, UserDetail, type UpdateUserBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { usersKeys } from './list-users-by-client';

const userKey = (id: string) => [...usersKeys.all, 'one', id] as const;

/** GET /api/user/show/{id}: one user of the administrator's scope. */
export function useUser(id: string | null) {
  return useQuery({
    queryKey: userKey(id ?? ''),
    queryFn: ({ signal }) => apiRequest(`/api/user/show/${encodeURIComponent(id ?? '')}`, { schema: UserDetail, signal }),
    enabled: !!id,
  });
}

/** POST /api/user/update/{id} (M5): name, username and email; the user lists reload. */
export function useUpdateUser(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UpdateUserBody) =>
      apiRequest(`/api/user/update/${encodeURIComponent(id)}`, { method: 'POST', body, schema: UserDetail }),
    onSuccess: (user) => {
      queryClient.setQueryData(userKey(id), user);
      return queryClient.invalidateQueries({ queryKey: usersKeys.all, predicate: (query) => query.queryKey[1] === 'by-client' });
    },
  });
}

/** DELETE /api/user/pending-email/{id}: "Cancelar alteração" of the new e-mail waiting for the user's link (ADR 82). */
export function useCancelPendingEmail(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(`/api/user/pending-email/${encodeURIComponent(id)}`, { method: 'DELETE', schema: SuccessMessageResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKey(id) }),
  });
}
