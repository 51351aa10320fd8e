import { ExcelGenerationResult } from '@sentinela/contract';
import { apiUpload } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

/** POST /api/reports/generate-reports-by-excel (R5): queues one report per row of the filled-in template. */
export function generateReportsByExcel(
  file: File,
  onProgress: (fraction: number) => void,
  signal?: AbortSignal,
): Promise<ExcelGenerationResult> {
  return apiUpload('/api/reports/generate-reports-by-excel', file, { schema: ExcelGenerationResult, onProgress, signal });
}

/** GET /api/reports/excel-template: the spreadsheet to fill in, one report per row. */
export function downloadExcelTemplate(): Promise<string> {
  return downloadFile('/api/reports/excel-template', 'modelo-relatorios.xlsx');
}
