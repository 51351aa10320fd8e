import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AlarmEscalationQuery, AlarmEscalationSettings } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/**
 * "Lembretes e escalonamento" of Configurações (ADR 24): the enterprise's reminder and escalation minutes. Its
 * administrators read and change their own enterprise's; the platform administrator names the enterprise.
 */
export const escalationRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { alarmReminders } = services;
  const admins = { permission: 'enterprise:settings' } as const;

  app.get(
    '/api/enterprise/alarm-escalation',
    { schema: { querystring: AlarmEscalationQuery, response: { 200: AlarmEscalationSettings } }, config: admins },
    async (request) => alarmReminders.settings(requireAuth(request), request.query.enterprise_id),
  );
  app.put(
    '/api/enterprise/alarm-escalation',
    { schema: { querystring: AlarmEscalationQuery, body: AlarmEscalationSettings, response: { 200: AlarmEscalationSettings } }, config: admins },
    async (request) => alarmReminders.save(requireAuth(request), request.query.enterprise_id, request.body),
  );
};
