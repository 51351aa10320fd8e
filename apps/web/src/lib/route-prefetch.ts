/**
 * How long a list the route asked for before its screen was on screen (app/route-prefetch.ts, ADR 0086) counts as
 * fresh: long enough that the screen, mounting once its code has loaded, reads the answer instead of asking the same
 * question again; short enough that coming back to the screen later reads the list again. Mutations still invalidate
 * it at once.
 */
export const ROUTE_PREFETCH_FRESH_MS = 10_000;
