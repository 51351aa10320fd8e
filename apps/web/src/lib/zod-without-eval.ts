/**
 * The server's Content-Security-Policy allows no eval (ADR 0014). zod compiles object parsers with `new Function`
 * unless told not to, and probes for it when the first object schema is built: the probe alone, though caught, is
 * reported as a CSP violation. Imported first by main.tsx, before any schema (the contract's included) exists.
 *
 * zod keeps its global settings in `globalThis.__zod_globalConfig` and adopts an object already there; setting it
 * directly keeps zod itself out of the entry, so only the screens that validate load it (ADR 0040). Tested in
 * zod-without-eval.test.ts: `z.config()` must read `jitless: true` (zod's version is pinned).
 */
const target = globalThis as { __zod_globalConfig?: Record<string, unknown> };
target.__zod_globalConfig = Object.assign(target.__zod_globalConfig ?? {}, { jitless: true });

export {};
