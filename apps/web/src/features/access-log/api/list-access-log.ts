import { AccessLogEntry, z } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const AccessLog = z.array(AccessLogEntry);

/** GET /api/access-log?user_id={id} (M7): what the user did, newest first, recorded by the server on every call. */
export function useAccessLog(userId: string | null) {
  return useQuery({
    queryKey: ['access-log', userId],
    queryFn: ({ signal }) => apiRequest(`/api/access-log?user_id=${encodeURIComponent(userId ?? '')}`, { schema: AccessLog, signal }),
    enabled: !!userId,
  });
}
