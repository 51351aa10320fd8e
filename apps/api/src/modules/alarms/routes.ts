import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AcknowledgeAlarmBody, AlarmNotification, AlarmNotificationList, IdParam, MacParam } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Alarms of a device (the Alarmes tab) and their acknowledgement (D6); always within the caller's scope. */
export const alarmRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/beacon-device/:mac/notifications',
    { schema: { params: MacParam, response: { 200: AlarmNotificationList } }, config: { permission: 'alarms:read' } },
    async (request) => services.alarms.notificationsOfDevice(requireAuth(request).scope, request.params.mac),
  );

  app.post(
    '/api/alarms/:id/acknowledge',
    { schema: { params: IdParam, body: AcknowledgeAlarmBody, response: { 200: AlarmNotification } }, config: { permission: 'alarms:acknowledge' } },
    async (request) => {
      const auth = requireAuth(request);
      const { message, password, meaning } = request.body;
      return services.alarms.acknowledge(auth.scope, request.params.id, { userId: auth.userId, message, password, meaning, viaApiToken: auth.apiToken !== null });
    },
  );
};
