import { AclListResponse, CreateUserResponse, SuccessMessageResponse, type CreateUserBody } from '@sentinela/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/acl/all: the profiles a new user may get (the excluded one is left out by the server). */
export const useAcl = () => useQuery({ queryKey: ['acl'], queryFn: () => apiRequest('/api/acl/all', { schema: AclListResponse }) });

/**
 * POST /api/user/create, then POST /api/client/link/{enterpriseId} with the new user as non-owner: the documents'
 * two calls, in order.
 */
export function useCreateUser() {
  return useMutation({
    mutationFn: async ({ enterpriseId, body }: { enterpriseId: string; body: CreateUserBody }) => {
      const created = await apiRequest('/api/user/create', { method: 'POST', body, schema: CreateUserResponse });
      await apiRequest(`/api/client/link/${encodeURIComponent(enterpriseId)}`, {
        method: 'POST',
        body: { users: [{ id: created.user._id, isOwner: false }] },
        schema: SuccessMessageResponse,
      });
      return created;
    },
  });
}
