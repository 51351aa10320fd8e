import {
  AccountMessageResponse,
  ProtectAccountResponse,
  VerifyEmailResponse,
  type RequestPasswordResetBody,
  type ResetPasswordBody,
  type SignUpBody,
} from '@sentinela/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** Where the sign-up's "not a robot" widget asks for a challenge (GET, public; issue 21 item 5). */
export const SIGN_UP_CHALLENGE_URL = '/api/client/challenge';

/** POST /api/client (A3), with the widget's answer (`altcha`). */
export function signUp(body: SignUpBody) {
  return apiRequest('/api/client', { method: 'POST', body, auth: 'none', schema: AccountMessageResponse });
}

/** GET /api/verify-email/{token} (A5). */
export function verifyEmail(token: string) {
  return apiRequest(`/api/verify-email/${encodeURIComponent(token)}`, { auth: 'none', schema: VerifyEmailResponse });
}

/** POST api/password/request/reset (A6): the server makes the code and e-mails it. */
export function requestPasswordReset(body: RequestPasswordResetBody) {
  return apiRequest('/api/password/request/reset', { method: 'POST', body, auth: 'none', schema: AccountMessageResponse });
}

/** POST api/password/reset (A6). */
export function resetPassword(body: ResetPasswordBody) {
  return apiRequest('/api/password/reset', { method: 'POST', body, auth: 'none', schema: AccountMessageResponse });
}

/** POST /api/account/protect: "Não fui eu" from the link of a change notice (ADR 58). */
export function protectAccount(token: string) {
  return apiRequest('/api/account/protect', { method: 'POST', body: { token }, auth: 'none', schema: ProtectAccountResponse });
}

export const useSignUp = () => useMutation({ mutationFn: signUp });
export const useRequestPasswordReset = () => useMutation({ mutationFn: requestPasswordReset });
export const useResetPassword = () => useMutation({ mutationFn: resetPassword });
export const useProtectAccount = () => useMutation({ mutationFn: protectAccount });
