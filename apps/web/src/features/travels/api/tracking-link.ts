import { Travel, type TrackingLinkBody, type z } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

export type TrackingLinkInput = z.input<typeof TrackingLinkBody>;
type Action = { kind: 'settings'; body: TrackingLinkInput } | { kind: 'revoke' } | { kind: 'regenerate' };

/**
 * The tracking link of a travel (ADR 36): PUT /api/travels/{id}/tracking-link (scope and expiry), POST …/revoke and
 * POST …/regenerate. Each answers the travel, which replaces the cached one; the list is read again.
 */
function send(id: string, action: Action): Promise<Travel> {
  const base = `/api/travels/${encodeURIComponent(id)}/tracking-link`;
  if (action.kind === 'settings') return apiRequest(base, { method: 'PUT', body: action.body, schema: Travel });
  return apiRequest(`${base}/${action.kind}`, { method: 'POST', schema: Travel });
}

export function useTrackingLink(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: Action) => send(id, action),
    onSuccess: async (travel) => {
      queryClient.setQueryData(travelKeys.detail(id), travel);
      await queryClient.invalidateQueries({ queryKey: travelKeys.list });
    },
  });
}
