import { alarmTopics, AlarmsSubscribeAck, OpenAlarmsEvent, SESSION_EXPIRED_CODE, type OpenAlarmCounts } from '@sentinela/contract';
import { io } from 'socket.io-client';
import type { AlarmChanges, AlarmsListener, AlarmsSocket } from './live-alarms';
import { expireSession } from './session';

// The part of the open-alarms feed that needs Socket.IO's client and zod: lib/live-alarms.tsx loads it after the
// signed-in shell's first paint (ADR 0040, ADR 0048).

/** Same origin as the page; the API serves Socket.IO at /socket.io. */
export function connectSocket(token: string): AlarmsSocket {
  return io({ path: '/socket.io', auth: { token } }) as unknown as AlarmsSocket;
}

/** Subscribes to the open alarms on `socket`; answers the clean-up that disconnects it. */
export function listenTo(socket: AlarmsSocket, listeners: ReadonlySet<AlarmsListener>, setCounts: (counts: OpenAlarmCounts) => void): () => void {
  let connectedOnce = false;
  const notify = (changes: AlarmChanges) => {
    for (const listener of [...listeners]) listener(changes);
  };
  const subscribe = () => {
    socket.emit(alarmTopics.subscribe, {}, (answer: unknown) => {
      const ack = AlarmsSubscribeAck.safeParse(answer);
      if (ack.success && ack.data.ok) setCounts({ count: ack.data.count, unacknowledged: ack.data.unacknowledged });
    });
    // Changes sent while the connection was down are lost: whoever shows alarms reloads them.
    if (connectedOnce) notify('all');
    connectedOnce = true;
  };
  const onChanged = (payload: unknown) => {
    const event = OpenAlarmsEvent.safeParse(payload);
    if (!event.success) return;
    setCounts({ count: event.data.count, unacknowledged: event.data.unacknowledged });
    notify(event.data.changes);
  };
  const onError = (error: Error & { data?: { code?: string } }) => {
    if (error.data?.code === SESSION_EXPIRED_CODE) expireSession();
  };
  socket.on('connect', subscribe);
  socket.on(alarmTopics.changed, onChanged);
  socket.on('connect_error', onError);
  return () => {
    socket.off('connect', subscribe);
    socket.off(alarmTopics.changed, onChanged);
    socket.off('connect_error', onError);
    socket.disconnect();
  };
}

