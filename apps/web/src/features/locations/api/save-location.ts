import { Location, type LocationBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** POST /api/locations (new) or PUT /api/locations/{id} (edit). */
export function saveLocation(id: string | null, body: LocationBody): Promise<Location> {
  const { enterprise_id, ...fields } = body;
  return id
    ? apiRequest(`/api/locations/${encodeURIComponent(id)}`, { method: 'PUT', body: fields, schema: Location })
    : apiRequest('/api/locations', { method: 'POST', body: enterprise_id ? body : fields, schema: Location });
}

export function useSaveLocation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: string | null; body: LocationBody }) => saveLocation(id, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: locationKeys.list }),
  });
}
