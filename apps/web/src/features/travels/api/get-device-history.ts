import { TravelReading, z } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { unwrapList } from './get-locations';
import { travelKeys } from './keys';

const TravelReadingList = z.array(TravelReading);

/** GET /api/travels/{id}/devices/{mac}/history: the device's readings during the travel (history tab, graphs). */
export function travelDeviceHistoryQueryOptions(travelId: string, mac: string) {
  return queryOptions({
    queryKey: travelKeys.deviceHistory(travelId, mac),
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<unknown>(
        `/api/travels/${encodeURIComponent(travelId)}/devices/${encodeURIComponent(mac)}/history`,
        { signal },
      );
      return TravelReadingList.parse(unwrapList(answer));
    },
  });
}

export function useTravelDeviceHistory(travelId: string | null, mac: string | null) {
  return useQuery({ ...travelDeviceHistoryQueryOptions(travelId ?? '', mac ?? ''), enabled: !!travelId && !!mac });
}
