import { config } from 'zod/v4/core';

/**
 * The server's Content-Security-Policy allows no eval (ADR 0014). zod compiles object parsers with `new Function`
 * unless told not to, and probes for it when the first object schema is built: the probe alone, though caught, is
 * reported as a CSP violation. Imported first by main.tsx, before any schema (the contract's included) exists.
 * Only zod's tiny global-config module is imported here, so the entry stays free of zod itself: the screens that
 * validate load zod in their own chunks, after this has run (ADR 0040).
 */
config({ jitless: true });
