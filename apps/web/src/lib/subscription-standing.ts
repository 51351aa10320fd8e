import { queryOptions } from '@tanstack/react-query';
import { apiRequest } from './api-client';

/** Query keys of the enterprise's subscription (ADR 32). */
export const subscriptionKeys = { all: ['subscription'] as const, standing: ['subscription', 'standing'] as const };

/** How long the shell's banner trusts the standing it read before reading it again on the next screen. */
export const STANDING_STALE_MS = 5 * 60_000;

/**
 * GET /api/subscription/standing (ADR 39). Light on purpose (the schema loads beside the request): the route asks for
 * it as soon as a signed-in screen is entered, in parallel with the shell's code (ADR 0086).
 */
export function standingQueryOptions() {
  return queryOptions({
    queryKey: subscriptionKeys.standing,
    queryFn: ({ signal }) =>
      apiRequest('/api/subscription/standing', { schema: () => import('./subscription-schemas').then((schemas) => schemas.SubscriptionStanding), signal }),
    staleTime: STANDING_STALE_MS,
  });
}
