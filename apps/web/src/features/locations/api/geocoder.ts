import { GeocodeResultList, GeocoderStatus } from '@sentinela/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/** GET /api/geocoder: whether the server has an address search (GEOCODER_URL). */
export function useGeocoderStatus(enabled: boolean) {
  return useQuery({
    queryKey: locationKeys.geocoder,
    queryFn: ({ signal }) => apiRequest('/api/geocoder', { schema: GeocoderStatus, signal }),
    staleTime: Infinity,
    enabled,
  });
}

/** GET /api/geocoder/search?q=: places for an address, found by the server (the browser calls no third party). */
export function useGeocodeSearch() {
  return useMutation({
    mutationFn: (q: string) => apiRequest(`/api/geocoder/search?q=${encodeURIComponent(q)}`, { schema: GeocodeResultList }),
  });
}
