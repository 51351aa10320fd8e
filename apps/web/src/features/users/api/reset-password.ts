import { SuccessMessageResponse, type AdminResetPasswordBody } from '@sentinela/contract';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/admin/users/{id}/reset-password: an administrator sets a user's new password (M4). */
export function resetUserPassword(userId: string, body: AdminResetPasswordBody): Promise<SuccessMessageResponse> {
  return apiRequest(`/api/admin/users/${encodeURIComponent(userId)}/reset-password`, {
    method: 'POST',
    body,
    schema: SuccessMessageResponse,
  });
}

export function useResetUserPassword() {
  return useMutation({
    mutationFn: ({ userId, password }: { userId: string; password: string }) => resetUserPassword(userId, { password }),
  });
}
