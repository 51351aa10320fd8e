import { AccountMessageResponse, type ChangePasswordBody, type ProfileBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { profileQuery } from '../../../lib/registration';
import { updateSessionUser } from '../../../lib/session';

/** GET /api/profile (A7). */
export const useProfile = () => useQuery(profileQuery);

/** POST /api/profile/ (the documents' spelling). */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => apiRequest('/api/profile/', { method: 'POST', body, schema: AccountMessageResponse }),
    onSuccess: async (_answer, body) => {
      const fresh = await queryClient.fetchQuery(profileQuery);
      updateSessionUser({ name: body.name, username: body.username, email: body.email, phone: body.phone, verified: fresh.verified });
    },
  });
}

/** POST /api/me/change-password, with the current password (ADR 0016). */
export const useChangePassword = () =>
  useMutation({ mutationFn: (body: ChangePasswordBody) => apiRequest('/api/me/change-password', { method: 'POST', body, schema: AccountMessageResponse }) });

export { useResendConfirmation } from '../../../lib/registration';
