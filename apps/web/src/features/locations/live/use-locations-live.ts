import type { PlacedDevice } from '@sentinela/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { followDeviceStates, type LiveDevicesStatus } from '../../../lib/live-device-states';
import { getSession } from '../../../lib/session';
import { locationKeys } from '../api/keys';
import { mergeLiveStates } from '../../../components/device-state/live-merge';

export type LocationsLiveStatus = LiveDevicesStatus;

/**
 * Follows the Locais map live while the screen shows it, on the devices feed the device lists follow too (ADR 0049):
 * each `location-devices` message is written into the devices list of the query cache, which the map reads; after a
 * reconnect, or when the devices the user may see changed, the list is fetched again.
 */
export function useLocationsLive(): LocationsLiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LocationsLiveStatus>('connecting');

  useEffect(() => {
    const token = getSession()?.token;
    if (!token) return;
    return followDeviceStates(token, {
      onStates: (states) => queryClient.setQueryData<PlacedDevice[]>(locationKeys.devices, (devices) => mergeLiveStates(devices, states)),
      onStale: () => void queryClient.invalidateQueries({ queryKey: locationKeys.devices }),
      onStatus: setStatus,
    });
  }, [queryClient]);

  return status;
}
