import { ReportValidation } from '@sentinela/contract';
import { apiUpload } from '../../../lib/api-client';

/**
 * POST /api/report/validate (R6): whether a PDF is one the product generated, unmodified. Public: sent without a
 * token, so it answers the same for visitors and signed-in users.
 */
export function validateReport(file: File, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ReportValidation> {
  return apiUpload('/api/report/validate', file, { auth: 'none', schema: ReportValidation, onProgress, signal });
}
