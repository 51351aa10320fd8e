/**
 * The report record's schema, loaded when an export runs (`schema: () => import('./schemas')...`): the export provider
 * is in the signed-in shell, and zod is not part of a screen's first load (ADR 0048).
 */
export { Report } from '@sentinela/contract';
