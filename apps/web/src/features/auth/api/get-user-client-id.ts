import { UserClientIdResponse } from '@sentinela/contract';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/user-client-id/{userId}: the user's enterprise (nulls when none). */
export function getUserClientId(userId: string, token: string): Promise<UserClientIdResponse> {
  return apiRequest(`/api/user-client-id/${encodeURIComponent(userId)}`, {
    auth: { token },
    schema: UserClientIdResponse,
  });
}
