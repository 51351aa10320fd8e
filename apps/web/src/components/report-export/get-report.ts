import type { Report } from '@sentinela/contract';
import { apiRequest } from '../../lib/api-client';

/** GET /api/reports/{id}: one report record, polled while its file is being generated. */
export function getReport(id: string, signal?: AbortSignal): Promise<Report> {
  return apiRequest(`/api/reports/${encodeURIComponent(id)}`, { schema: () => import('./schemas').then((schemas) => schemas.Report), signal });
}
