import { Firmware, FirmwareLimits, FirmwareList } from '@sentinela/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, apiUpload } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';

export const firmwareKeys = {
  all: ['firmwares'] as const,
  list: () => [...firmwareKeys.all, 'list'] as const,
  limits: () => [...firmwareKeys.all, 'limits'] as const,
};

/** GET /api/firmwares (M1): every version, newest first; the first is the current one. */
export const firmwareListQuery = () =>
  queryOptions({ queryKey: firmwareKeys.list(), queryFn: ({ signal }) => apiRequest('/api/firmwares', { schema: FirmwareList, signal }) });

export const useFirmwares = () => useQuery(firmwareListQuery());

/** GET /api/firmwares/limits: the largest file the server takes, checked before sending megabytes for nothing. */
export const useFirmwareLimits = () =>
  useQuery({
    queryKey: firmwareKeys.limits(),
    queryFn: ({ signal }) => apiRequest('/api/firmwares/limits', { schema: FirmwareLimits, signal }),
    staleTime: Infinity,
  });

export interface NewFirmware {
  version: string;
  notes: string;
  file: File;
  onProgress?: (fraction: number) => void;
}

/** POST /api/firmwares, multipart: version, notes, file (spec 001 §7). */
export function addFirmware({ version, notes, file, onProgress }: NewFirmware): Promise<Firmware> {
  return apiUpload('/api/firmwares', file, { fields: { version, notes }, schema: Firmware, onProgress });
}

export function useAddFirmware() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addFirmware,
    // A refused version may mean the list is stale (someone else added one): reload it either way.
    onSettled: () => queryClient.invalidateQueries({ queryKey: firmwareKeys.list() }),
  });
}

/** GET /api/firmwares/{id}/download: the file, under the name the server gives. */
export function downloadFirmware(firmware: Pick<Firmware, '_id' | 'version'>): Promise<string> {
  return downloadFile(`/api/firmwares/${encodeURIComponent(firmware._id)}/download`, `firmware-${firmware.version}.bin`);
}
