import { LocationDevicesEvent, locationTopics, LocationsSubscribeAck, SESSION_EXPIRED_CODE, type PlacedDevice } from '@sentinela/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { io } from 'socket.io-client';
import { expireSession, getSession } from '../../../lib/session';
import { locationKeys } from '../api/keys';
import { mergeLiveStates } from '../../../components/device-state/live-merge';

export type LocationsLiveStatus = 'connecting' | 'live' | 'refused' | 'offline';

/**
 * Follows the Locais map live while the screen shows it: one Socket.IO connection (same origin, the session's
 * token), subscribed to the caller's locations feed; each `location-devices` message is written into the devices
 * list of the query cache, which the map reads. After a reconnect the list is fetched again (messages sent while
 * the connection was down are lost).
 */
export function useLocationsLive(): LocationsLiveStatus {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LocationsLiveStatus>('connecting');

  useEffect(() => {
    const token = getSession()?.token;
    if (!token) return;
    const socket = io({ path: '/socket.io', auth: { token } });
    let connectedOnce = false;

    const subscribe = () => {
      socket.emit(locationTopics.subscribe, {}, (answer: unknown) => {
        const ack = LocationsSubscribeAck.safeParse(answer);
        setStatus(ack.success && ack.data.ok ? 'live' : 'refused');
      });
      if (connectedOnce) void queryClient.invalidateQueries({ queryKey: locationKeys.devices });
      connectedOnce = true;
    };
    const onDevices = (payload: unknown) => {
      const states = LocationDevicesEvent.safeParse(payload);
      if (!states.success) return;
      queryClient.setQueryData<PlacedDevice[]>(locationKeys.devices, (devices) => mergeLiveStates(devices, states.data));
    };
    const onError = (error: Error & { data?: { code?: string } }) => {
      if (error.data?.code === SESSION_EXPIRED_CODE) expireSession();
      else setStatus('offline');
    };
    const onDisconnect = () => setStatus('offline');

    socket.on('connect', subscribe);
    socket.on(locationTopics.devices, onDevices);
    socket.on('connect_error', onError);
    socket.on('disconnect', onDisconnect);
    return () => {
      socket.off('connect', subscribe);
      socket.off(locationTopics.devices, onDevices);
      socket.off('connect_error', onError);
      socket.off('disconnect', onDisconnect);
      socket.disconnect();
    };
  }, [queryClient]);

  return status;
}
