import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AlarmDeliveryList,
  IdParam,
  MSG,
  NotificationChannelBody,
  NotificationChannelList,
  NotificationSettings,
  TelegramChatParam,
  TelegramLinkQuery,
  TelegramLinkResponse,
} from '@sentinela/contract';
import type { Update } from 'grammy/types';
import { AppError } from '../../lib/errors';
import { requireAuth } from '../../plugins/auth';
import { userOrAddress } from '../../plugins/rate-limits';
import type { AppServices } from '../../services';

/**
 * Configurações (A10), the Telegram link (A12) and the delivery log of an alarm (D6). Each user reaches only their
 * own settings and link; the delivery log follows the alarm's device scope.
 */
export const notificationRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { notificationSettings: settings, telegramLinks, telegram, alarmDeliveries } = services;
  const own = { permission: 'settings:own' } as const;

  app.get('/api/me/config/notification-channel', { schema: { response: { 200: NotificationChannelList } }, config: own }, async (request) =>
    settings.enabled(requireAuth(request).userId),
  );
  app.post(
    '/api/me/config/notification-channel',
    { schema: { body: NotificationChannelBody, response: { 200: NotificationChannelList } }, config: own },
    async (request) => settings.enable(requireAuth(request).userId, request.body.channel),
  );
  app.delete(
    '/api/me/config/notification-channel',
    { schema: { body: NotificationChannelBody, response: { 200: NotificationChannelList } }, config: own },
    async (request) => settings.disable(requireAuth(request).userId, request.body.channel),
  );
  app.get('/api/me/config/notification-channel/status', { schema: { response: { 200: NotificationSettings } }, config: own }, async (request) =>
    settings.settings(requireAuth(request).userId),
  );

  // The documents' call has an empty body; the link's one-time token rides in the query (ADR 21).
  app.post(
    '/api/me/telegram/:chatId/link',
    {
      schema: { params: TelegramChatParam, querystring: TelegramLinkQuery, response: { 200: TelegramLinkResponse } },
      config: {
        ...own,
        // Link tokens must not be guessed: per signed-in user.
        limits: [{ limit: services.rateLimits.limit({ name: 'telegram-link', points: 20, windowSeconds: 60 }), key: userOrAddress, message: MSG.tooManyRequests }],
      },
    },
    async (request) => ({ success: true as const, message: await telegramLinks.link(requireAuth(request).userId, request.params.chatId, request.query.token) }),
  );
  app.delete('/api/me/telegram', { schema: { response: { 200: TelegramLinkResponse } }, config: own }, async (request) => ({
    success: true as const,
    message: await telegramLinks.unlink(requireAuth(request).userId),
  }));

  app.get(
    '/api/alarms/:id/deliveries',
    { schema: { params: IdParam, response: { 200: AlarmDeliveryList } }, config: { permission: 'alarms:read' } },
    async (request) => alarmDeliveries.deliveriesOf(requireAuth(request).scope, request.params.id),
  );

  if (services.config.telegramWebhookUrl && telegram.configured) {
    // Telegram's calls, told apart from anyone else's by the secret given to setWebhook.
    app.post(
      '/api/telegram/webhook',
      {
        schema: {
          body: z.object({ update_id: z.number().int() }).passthrough(),
          response: { 200: z.object({ ok: z.literal(true) }) },
          security: [{ telegramWebhookSecret: [] }],
        },
        config: { permission: 'public', keepsAnsweringUnderLoad: true },
      },
      async (request, reply) => {
        if (!telegram.isWebhookSecret(request.headers['x-telegram-bot-api-secret-token'] as string | undefined)) {
          throw new AppError('UNAUTHENTICATED', 'Chamada do Telegram sem o segredo do webhook.');
        }
        await telegram.handleWebhookUpdate(request.body as unknown as Update);
        return reply.code(200).send({ ok: true });
      },
    );
  }
};
