import { LocationDevicesEvent, locationTopics, LocationsSubscribeAck, SESSION_EXPIRED_CODE, type LocationDeviceState } from '@sentinela/contract';
import type { AlarmsSocket } from './live-alarms';
import { expireSession } from './session';

/** Whether a screen receives its devices' readings live. */
export type LiveDevicesStatus = 'connecting' | 'live' | 'refused' | 'offline';

export interface DeviceStatesFollower {
  /** The newest values of devices of a stored batch that the user may see. */
  onStates(states: LocationDeviceState[]): void;
  /**
   * What the screen shows may be out of date: after a reconnection (messages sent meanwhile are lost), or when the
   * devices the user may see changed (linked, unlinked: `location-devices-changed`). The screen fetches its list again.
   */
  onStale(): void;
  onStatus(status: LiveDevicesStatus): void;
}

/** The Socket.IO client, loaded on first use (after the screen's first paint: ADR 0040, 0049). */
async function connectSocket(token: string): Promise<AlarmsSocket> {
  const { io } = await import('socket.io-client');
  return io({ path: '/socket.io', auth: { token } }) as unknown as AlarmsSocket;
}

/**
 * Follows the devices feed of the signed-in user (the feed of the Locais map: the scope of the user's device lists,
 * super admin every device, an enterprise admin its enterprise's, anyone else the devices linked to them) on a
 * connection of its own. Answers the clean-up, which may run before the connection exists.
 */
export function followDeviceStates(token: string, follower: DeviceStatesFollower, connect: (token: string) => Promise<AlarmsSocket> = connectSocket): () => void {
  let stop: (() => void) | null = null;
  let stopped = false;
  follower.onStatus('connecting');
  connect(token).then(
    (socket) => {
      if (stopped) socket.disconnect();
      else stop = listen(socket, follower);
    },
    () => follower.onStatus('offline'),
  );
  return () => {
    stopped = true;
    stop?.();
  };
}

function listen(socket: AlarmsSocket, follower: DeviceStatesFollower): () => void {
  let connectedOnce = false;
  const subscribe = () => {
    socket.emit(locationTopics.subscribe, {}, (answer: unknown) => {
      const ack = LocationsSubscribeAck.safeParse(answer);
      follower.onStatus(ack.success && ack.data.ok ? 'live' : 'refused');
    });
    if (connectedOnce) follower.onStale();
    connectedOnce = true;
  };
  const onDevices = (payload: unknown) => {
    const states = LocationDevicesEvent.safeParse(payload);
    if (states.success) follower.onStates(states.data);
  };
  const onChanged = () => follower.onStale();
  const onError = (error: Error & { data?: { code?: string } }) => {
    if (error.data?.code === SESSION_EXPIRED_CODE) expireSession();
    else follower.onStatus('offline');
  };
  const onDisconnect = () => follower.onStatus('offline');
  socket.on('connect', subscribe);
  socket.on(locationTopics.devices, onDevices);
  socket.on(locationTopics.changed, onChanged);
  socket.on('connect_error', onError);
  socket.on('disconnect', onDisconnect);
  return () => {
    socket.off('connect', subscribe);
    socket.off(locationTopics.devices, onDevices);
    socket.off(locationTopics.changed, onChanged);
    socket.off('connect_error', onError);
    socket.off('disconnect', onDisconnect);
    socket.disconnect();
  };
}
