import { AccountMessageResponse, type ChangePasswordBody, type ProfileBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { profileQuery } from '../../../lib/registration';
import { updateSessionUser } from '../../../lib/session';

/** GET /api/profile (A7). */
export const useProfile = () => useQuery(profileQuery);

/**
 * POST /api/profile/ (the documents' spelling), then the profile as saved: a new e-mail is not the account's yet
 * (ADR 82), so the session keeps the address the server answers, not the one typed.
 */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (body: ProfileBody) => {
      const answer = await apiRequest('/api/profile/', { method: 'POST', body, schema: AccountMessageResponse });
      const fresh = await queryClient.fetchQuery({ ...profileQuery, staleTime: 0 });
      return { message: answer.message, profile: fresh };
    },
    onSuccess: ({ profile }) => updateSessionUser({ name: profile.name, username: profile.username, email: profile.email, phone: profile.phone, verified: profile.verified }),
  });
}

/** DELETE /api/profile/pending-email: "Cancelar alteração" of a new e-mail waiting for its link (ADR 82). */
export function useCancelPendingEmail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/profile/pending-email', { method: 'DELETE', schema: AccountMessageResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: profileQuery.queryKey }),
  });
}

/** POST /api/me/change-password, with the current password (ADR 0016). */
export const useChangePassword = () =>
  useMutation({ mutationFn: (body: ChangePasswordBody) => apiRequest('/api/me/change-password', { method: 'POST', body, schema: AccountMessageResponse }) });

export { useResendConfirmation } from '../../../lib/registration';
