import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OPEN_ALARMS_LIMIT, OpenAlarmList } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';
import { countOpenAlarms, listOpenAlarms } from './repository';

/**
 * The header's open alarms (issue 11, item 5): how many alarms are open on the devices the caller may see, and the
 * newest of them, across devices. Live changes come through the socket (realtime/alarm-rooms.ts).
 */
export const openAlarmRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  app.get(
    '/api/alarms/open',
    { schema: { response: { 200: OpenAlarmList } }, config: { permission: 'alarms:read' } },
    async (request) => {
      const { scope } = requireAuth(request);
      const [counts, alarms] = await Promise.all([countOpenAlarms(services.db, scope), listOpenAlarms(services.db, scope, OPEN_ALARMS_LIMIT)]);
      return { ...counts, alarms };
    },
  );
};
