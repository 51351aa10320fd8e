/**
 * The schema the subscription's standing is parsed with, loaded beside its request: the standing is asked for from the
 * entry as soon as a signed-in route is entered (ADR 0086), and zod is not part of the entry (ADR 0048).
 */
export { SubscriptionStanding } from '@sentinela/contract';
