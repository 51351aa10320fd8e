import { API_VERSION } from '@sentinela/contract';
import type { Db } from '../../db/database';
import type { ClientMeta } from '../auth/session-service';

/** Every change to a device is recorded with who made it and from which client (D7). */
export async function recordDeviceEvent(
  db: Db,
  event: { deviceId: string; type: string; message: string; userId: string | null; meta: ClientMeta; at: Date },
): Promise<void> {
  await db
    .insertInto('device_events')
    .values({
      device_id: event.deviceId,
      type: event.type,
      message: event.message,
      user_id: event.userId,
      client: event.meta.client,
      client_version: event.meta.clientVersion,
      client_os: event.meta.clientOs,
      api_version: API_VERSION,
      created_at: event.at,
    })
    .execute();
}
