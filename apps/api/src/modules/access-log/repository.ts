import type { AccessLogEntry } from '@sentinela/contract';
import type { Db } from '../../db/database';
import { accessMessage } from './actions';

export async function listAccessLogOfUser(db: Db, userId: string, limit = 1000): Promise<AccessLogEntry[]> {
  const rows = await db
    .selectFrom('access_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.id', 'a.created_at', 'a.client', 'a.client_version', 'a.client_os', 'a.ip', 'a.api_version', 'a.message', 'a.method', 'a.path', 'a.status_code', 'u.id as user_id', 'u.name as user_name'])
    .where('a.user_id', '=', userId)
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    _id: String(r.id),
    created_at: r.created_at.toISOString(),
    client: r.client,
    clientVersion: r.client_version,
    clientOs: r.client_os,
    ip: r.ip,
    apiVersion: r.api_version,
    user: r.user_id && r.user_name ? { _id: r.user_id, name: r.user_name } : null,
    message: accessMessage(r),
  }));
}
