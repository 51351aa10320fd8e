import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Coverage, HistoryFilter, HistoryPage, HistoryPageQuery, HistorySeries, MacParam, Reading, SeriesQuery, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

export const historyRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  // The documents' call: the window's readings as a list (spec 001 §7 "reading list"; ADR 0071).
  app.get(
    '/api/beacon-device/history/mac/:mac',
    { schema: { params: MacParam, querystring: HistoryFilter, response: { 200: z.array(Reading) } }, config: { permission: 'readings:read' } },
    async (request) => services.history.list(requireAuth(request).scope, request.params.mac, request.query),
  );

  // The same window a page at a time with its total: what the web app's Dados tab reads.
  app.get(
    '/api/beacon-device/history/mac/:mac/page',
    { schema: { params: MacParam, querystring: HistoryPageQuery, response: { 200: HistoryPage } }, config: { permission: 'readings:read' } },
    async (request) => {
      const { page, limit, ...filter } = request.query;
      return services.history.page(requireAuth(request).scope, request.params.mac, filter, page, limit);
    },
  );

  app.get(
    '/api/beacon-device/history/mac/:mac/series',
    { schema: { params: MacParam, querystring: SeriesQuery, response: { 200: HistorySeries } }, config: { permission: 'readings:read' } },
    async (request) => {
      const { points, ...filter } = request.query;
      return services.history.series(requireAuth(request).scope, request.params.mac, filter, points);
    },
  );

  // ADR 0035: how complete the device's readings are over the same window as the history (value filters ignored).
  app.get(
    '/api/beacon-device/history/mac/:mac/coverage',
    { schema: { params: MacParam, querystring: HistoryFilter, response: { 200: Coverage } }, config: { permission: 'readings:read' } },
    async (request) => services.history.coverage(requireAuth(request).scope, request.params.mac, request.query),
  );
};
