import { AccountMessageResponse, ProfileResponse, type ChangePasswordBody, type ProfileBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { updateSessionUser } from '../../../lib/session';

const profileKey = ['profile'] as const;

/** GET /api/profile (A7). */
export const useProfile = () => useQuery({ queryKey: profileKey, queryFn: () => apiRequest('/api/profile', { schema: ProfileResponse }) });

/** POST /api/profile/ (the documents' spelling). */
export function useSaveProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ProfileBody) => apiRequest('/api/profile/', { method: 'POST', body, schema: AccountMessageResponse }),
    onSuccess: async (_answer, body) => {
      const fresh = await queryClient.fetchQuery({ queryKey: profileKey, queryFn: () => apiRequest('/api/profile', { schema: ProfileResponse }) });
      updateSessionUser({ name: body.name, username: body.username, email: body.email, phone: body.phone, verified: fresh.verified });
    },
  });
}

/** POST /api/me/change-password, with the current password (ADR 0016). */
export const useChangePassword = () =>
  useMutation({ mutationFn: (body: ChangePasswordBody) => apiRequest('/api/me/change-password', { method: 'POST', body, schema: AccountMessageResponse }) });

/** POST /api/verify-email/resend: "Reenviar e-mail". */
export const useResendConfirmation = () =>
  useMutation({ mutationFn: () => apiRequest('/api/verify-email/resend', { method: 'POST', schema: AccountMessageResponse }) });
