import { TravelReading, z } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { unwrapList } from './get-locations';
import { travelKeys } from './keys';

const TravelReadingList = z.array(TravelReading);

/**
 * How a screen reaches a travel's readings (ADR 72): by its id, as a user who may see the travel, or through its
 * tracking code, as the holder of a code that shows readings (/localizator of another enterprise's travel).
 */
export interface TravelAccess {
  travelId: string;
  /** Set when the readings are read through the code's routes. */
  code?: string;
  /** With the code: whether the reader has a session to send (a visitor asks without one). */
  signedIn?: boolean;
}

/** The device's readings during the travel (history tab, graphs): by id, or through the tracking code. */
export function travelDeviceHistoryPath(access: TravelAccess, mac: string): string {
  return access.code
    ? `/api/travels/localizator/${encodeURIComponent(access.code)}/devices/${encodeURIComponent(mac)}/history`
    : `/api/travels/${encodeURIComponent(access.travelId)}/devices/${encodeURIComponent(mac)}/history`;
}

/** GET /api/travels/{id}/devices/{mac}/history (or its tracking-code twin): the device's readings during the travel. */
export function travelDeviceHistoryQueryOptions(access: TravelAccess, mac: string) {
  return queryOptions({
    queryKey: travelKeys.deviceHistory(access.travelId, mac),
    queryFn: async ({ signal }) => {
      const answer = await apiRequest<unknown>(travelDeviceHistoryPath(access, mac), { signal, auth: access.code && !access.signedIn ? 'none' : 'session' });
      return TravelReadingList.parse(unwrapList(answer));
    },
  });
}

export function useTravelDeviceHistory(access: TravelAccess | null, mac: string | null) {
  return useQuery({ ...travelDeviceHistoryQueryOptions(access ?? { travelId: '' }, mac ?? ''), enabled: !!access?.travelId && !!mac });
}
