import { RetentionSettings, type RetentionBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const retentionKey = ['retention'] as const;

/** GET /api/enterprise/retention: how long the caller's enterprise keeps its readings and report files (ADR 0081). */
export const useRetention = () =>
  useQuery({ queryKey: retentionKey, queryFn: () => apiRequest('/api/enterprise/retention', { schema: RetentionSettings }) });

/** PUT /api/enterprise/retention. */
export function useSaveRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: RetentionBody) => apiRequest('/api/enterprise/retention', { method: 'PUT', body, schema: RetentionSettings }),
    onSuccess: (saved) => queryClient.setQueryData(retentionKey, saved),
  });
}
