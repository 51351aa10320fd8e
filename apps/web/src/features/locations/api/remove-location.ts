import { OkResponse } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** DELETE /api/locations/{id}: its groups go, its devices stay without a location. */
export function removeLocation({ id, reason }: { id: string; reason?: string }) {
  // The reason (GxP mode, ADR 0063) in the body: the location's devices lose their place.
  return apiRequest(`/api/locations/${encodeURIComponent(id)}`, { method: 'DELETE', body: reason ? { reason } : undefined, schema: OkResponse });
}

export function useRemoveLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeLocation,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: locationKeys.all }),
  });
}
