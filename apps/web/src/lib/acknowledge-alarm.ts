import { AlarmNotification, type AcknowledgeAlarmBody } from '@sentinela/contract';
import type { z } from 'zod';
import { apiRequest } from './api-client';

/** POST /api/alarms/{id}/acknowledge { message } → the acknowledged alarm (D6): from the Alarmes tab and the open-alarms list. */
export function acknowledgeAlarm(id: string, body: z.input<typeof AcknowledgeAlarmBody>): Promise<AlarmNotification> {
  return apiRequest(`/api/alarms/${encodeURIComponent(id)}/acknowledge`, { method: 'POST', body, schema: AlarmNotification });
}
