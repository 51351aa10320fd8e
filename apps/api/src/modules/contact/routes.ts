import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CONTACT_MESSAGES, ContactBody, ContactResponse, z } from '@sentinela/contract';
import type { AppServices } from '../../services';

const ChallengeResponse = z.object({ parameters: z.record(z.string(), z.unknown()), signature: z.string().optional() });

/** The landing page's contact form (A14): a challenge for the widget, then the message. Public, limited per address. */
export const contactRoutes: FastifyPluginAsyncZod<{ services: AppServices }> = async (app, { services }) => {
  const { contact, config } = services;
  const challenges = services.rateLimits.limit({ name: 'contact-challenges', points: 60, windowSeconds: 60 });
  const messages = services.rateLimits.limit({ name: 'contact-messages', points: config.contactMaxPerHour, windowSeconds: 3600 });

  app.get(
    '/api/contact-us/challenge',
    {
      schema: { response: { 200: ChallengeResponse } },
      // A challenge is cheap to make, but each one is a row-free promise of work: a page load asks for one.
      config: { permission: 'public', limits: [{ limit: challenges, message: CONTACT_MESSAGES.tooMany }] },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      const challenge = await contact.humanCheck.createChallenge();
      return { parameters: { ...challenge.parameters }, signature: challenge.signature };
    },
  );

  app.post(
    '/api/contact-us',
    {
      schema: { body: ContactBody, response: { 200: ContactResponse } },
      config: { permission: 'public', limits: [{ limit: messages, message: CONTACT_MESSAGES.tooMany }] },
    },
    async (request) => {
      await contact.receive(request.body);
      return { success: true as const, message: CONTACT_MESSAGES.sent };
    },
  );
};
