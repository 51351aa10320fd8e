/**
 * How many end-to-end files run at once, each in its own Chromium against its own environment (e2e/environment.ts).
 * Two by default, for the 2-core CI machine: the tests mostly wait for the server and the browser, so a second file
 * fills the idle core (ADR 50). `E2E_WORKERS=1` runs them one at a time.
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS ?? 2) || 1);
