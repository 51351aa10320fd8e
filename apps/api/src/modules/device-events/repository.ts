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

/** Many events of one kind of change at once (registering or linking many devices): one statement. */
export async function recordDeviceEvents(
  db: Db,
  events: readonly { deviceId: string; type: string; message: string }[],
  by: { userId: string | null; meta: ClientMeta; at: Date },
): Promise<void> {
  if (events.length === 0) return;
  await db
    .insertInto('device_events')
    .values(
      events.map((event) => ({
        device_id: event.deviceId,
        type: event.type,
        message: event.message,
        user_id: by.userId,
        client: by.meta.client,
        client_version: by.meta.clientVersion,
        client_os: by.meta.clientOs,
        api_version: API_VERSION,
        created_at: by.at,
      })),
    )
    .execute();
}

const TYPE_LABELS: Record<string, string> = {
  register: 'Cadastro',
  rename: 'Alteração de nome',
  config: 'Configuração',
  link: 'Vínculo',
  unlink: 'Desvínculo',
  firmware: 'Firmware',
  travel: 'Viagem',
};

export async function listDeviceEvents(db: Db, deviceId: string, limit = 500) {
  const rows = await db
    .selectFrom('device_events as ev')
    .leftJoin('users as u', 'u.id', 'ev.user_id')
    .select(['ev.id', 'ev.created_at', 'ev.type', 'ev.message', 'ev.client', 'ev.client_version', 'ev.client_os', 'ev.api_version', 'u.name as user_name'])
    .where('ev.device_id', '=', deviceId)
    .orderBy('ev.created_at', 'desc')
    .orderBy('ev.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    _id: String(r.id),
    created_at: r.created_at.toISOString(),
    type: r.type,
    type_formatted: TYPE_LABELS[r.type] ?? r.type,
    message: r.message,
    user: r.user_name ? { name: r.user_name } : null,
    client: r.client,
    clientVersion: r.client_version,
    clientOs: r.client_os,
    apiVersion: r.api_version,
  }));
}
