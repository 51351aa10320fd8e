import { AccountMessageResponse, ProfileResponse } from '@sentinela/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/profile: the e-mail and whether it is confirmed (step 1). */
export const useEmailState = () =>
  useQuery({ queryKey: ['profile'], queryFn: () => apiRequest('/api/profile', { schema: ProfileResponse }) });

/** POST /api/verify-email/resend: "Reenviar e-mail". */
export const useResendConfirmation = () =>
  useMutation({ mutationFn: () => apiRequest('/api/verify-email/resend', { method: 'POST', schema: AccountMessageResponse }) });
