import { createAdapter } from '@socket.io/redis-adapter';
import { createClient } from 'redis';
import type { RealtimeServer } from './socket-auth';

/**
 * Rooms shared by several API processes (T6): with REDIS_URL, an emit to a travel's room on the process that
 * stored the readings reaches the sockets connected to every process. Without it, rooms are in-process.
 */
export async function useRedisAdapter(io: RealtimeServer, url: string, log: { error(obj: unknown, msg: string): void }): Promise<{ close(): Promise<void> }> {
  const pub = createClient({ url });
  const sub = pub.duplicate();
  // The clients reconnect by themselves; an error must not take the process down.
  for (const client of [pub, sub]) client.on('error', (err: unknown) => log.error({ err }, 'redis (Socket.IO adapter) error'));
  await Promise.all([pub.connect(), sub.connect()]);
  io.adapter(createAdapter(pub, sub));
  return {
    async close() {
      await io.of('/').adapter.close();
      await Promise.allSettled([pub.close(), sub.close()]);
    },
  };
}
