import { BeaconImportResult } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiUpload } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

/** POST /api/beacon-device/import: the rows of an .xlsx or .csv, one message per refused row. */
export function importBeacons(file: File): Promise<BeaconImportResult> {
  return apiUpload('/api/beacon-device/import', file, { schema: BeaconImportResult });
}

export function useImportBeacons() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: importBeacons, onSuccess: () => queryClient.invalidateQueries() });
}

/** GET /api/beacon-device/import-template: the spreadsheet to fill in, one beacon per row. */
export function downloadBeaconTemplate(): Promise<string> {
  return downloadFile('/api/beacon-device/import-template', 'modelo-dispositivos.xlsx');
}
