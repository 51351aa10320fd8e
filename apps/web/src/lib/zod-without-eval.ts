import { z } from 'zod';

/**
 * The server's Content-Security-Policy allows no eval (ADR 0014). zod compiles object parsers with `new Function`
 * unless told not to, and probes for it when the first object schema is built: the probe alone, though caught, is
 * reported as a CSP violation. Imported first by main.tsx, before any schema (the contract's included) exists.
 */
z.config({ jitless: true });
