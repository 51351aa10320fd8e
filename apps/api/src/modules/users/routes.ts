import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AclListResponse, CREATE_USER_MESSAGES, CreateUserBody, CreateUserResponse, LinkUsersBody, LinkUsersParams, ActiveInactiveBody, AdminResetPasswordBody, ClientIdParam, IdParam, SuccessMessageResponse, UpdateUserBody, UserDetail, UsersByClientQuery, z } from '@sentinela/contract';
import { requireAuth } from '../../plugins/auth';
import { takenAnswersLimit } from '../../plugins/rate-limits';
import { notFound } from '../../lib/errors';
import type { AppServices } from '../../services';
import { isEnterpriseInScope } from '../enterprises/repository';
import { listUsersOfEnterpriseInScope } from './repository';

export const userRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const taken = takenAnswersLimit(services);
  app.get(
    '/api/user/show/:id',
    { schema: { params: IdParam, response: { 200: UserDetail } }, config: { permission: 'users:read' } },
    async (request) => services.users.show(requireAuth(request), request.params.id),
  );

  app.post(
    '/api/user/update/:id',
    { schema: { params: IdParam, body: UpdateUserBody, response: { 200: UserDetail } }, config: { permission: 'users:manage', limits: [taken] } },
    async (request) => services.users.updateIdentity(requireAuth(request), request.params.id, request.body),
  );

  // ADR 82: "Cancelar alteração" of a new e-mail waiting for the user to open its link.
  app.delete(
    '/api/user/pending-email/:id',
    { schema: { params: IdParam, response: { 200: SuccessMessageResponse } }, config: { permission: 'users:manage' } },
    async (request) => ({ success: true as const, message: await services.users.cancelPendingEmail(requireAuth(request), request.params.id) }),
  );

  app.get(
    '/api/users-by-client/:clientId',
    {
      schema: { params: ClientIdParam, querystring: UsersByClientQuery, response: { 200: z.array(UserDetail) } },
      config: { permission: 'users:read' },
    },
    async (request) => {
      const { scope } = requireAuth(request);
      if (!(await isEnterpriseInScope(services.db, scope, request.params.clientId))) throw notFound('Empresa não encontrada.');
      const disabled = request.query.disabled === undefined ? undefined : request.query.disabled === 'true';
      return listUsersOfEnterpriseInScope(services.db, scope, request.params.clientId, disabled);
    },
  );

  app.post(
    '/api/client-active-inactive',
    {
      schema: { body: ActiveInactiveBody, response: { 200: SuccessMessageResponse } },
      config: { permission: 'users:manage' },
    },
    async (request) => {
      const { user_id, client_id, status } = request.body;
      const message = await services.users.setActive(requireAuth(request), { userId: user_id, clientId: client_id }, status);
      return { success: true as const, message };
    },
  );

  app.post(
    '/api/admin/users/:id/reset-password',
    {
      schema: { params: IdParam, body: AdminResetPasswordBody, response: { 200: SuccessMessageResponse } },
      config: { permission: 'users:manage' },
    },
    async (request) => {
      const message = await services.users.resetPassword(requireAuth(request), request.params.id, request.body.password);
      return { success: true as const, message };
    },
  );
};

/** /register-user (A13): the profiles on offer, the creation, and the link to the enterprise. */
export const userCreationRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const taken = takenAnswersLimit(services);
  app.get('/api/acl/all', { schema: { response: { 200: AclListResponse } }, config: { permission: 'users:manage' } }, () => services.userCreation.acl());

  app.post(
    '/api/user/create',
    { schema: { body: CreateUserBody, response: { 200: CreateUserResponse } }, config: { permission: 'users:manage', limits: [taken] } },
    async (request) => {
      const user = await services.userCreation.create(requireAuth(request), request.body);
      return { success: true as const, message: CREATE_USER_MESSAGES.created, user: { _id: user.id, id: user.id } };
    },
  );

  app.post(
    '/api/client/link/:enterpriseId',
    { schema: { params: LinkUsersParams, body: LinkUsersBody, response: { 200: SuccessMessageResponse } }, config: { permission: 'users:manage' } },
    async (request) => {
      await services.userCreation.link(requireAuth(request), request.params.enterpriseId, request.body);
      return { success: true as const, message: CREATE_USER_MESSAGES.linked };
    },
  );
};
