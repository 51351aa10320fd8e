import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CreateMappingStudyBody, MappingStudy, MappingStudyList } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import type { AppServices } from '../../services';

/** Thermal mapping studies (X12, ADR 0083): the enterprise's administrators and the super admin. */
export const mappingStudyRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const studies = services.mappingStudies;
  const manage = { permission: 'mapping-studies:manage' as const };

  app.get('/api/mapping-studies', { schema: { response: { 200: MappingStudyList } }, config: manage }, async (request) =>
    studies.list(requireAuth(request).scope),
  );

  app.post('/api/mapping-studies', { schema: { body: CreateMappingStudyBody, response: { 201: MappingStudy } }, config: manage }, async (request, reply) => {
    const auth = requireAuth(request);
    return reply.status(201).send(await studies.create({ userId: auth.userId, scope: auth.scope }, request.body));
  });
};
