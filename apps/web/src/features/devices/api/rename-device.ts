import { Device, type UpdateDeviceNameBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { devicesKeys } from './list-my-devices';

/** POST /api/devices/update-name/{mac} → the renamed device. */
export function renameDevice(mac: string, body: z.infer<typeof UpdateDeviceNameBody>): Promise<Device> {
  return apiRequest(`/api/devices/update-name/${encodeURIComponent(mac)}`, { method: 'POST', body, schema: Device });
}

export function useRenameDevice() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ mac, ...body }: { mac: string; name: string; reason?: string }) => renameDevice(mac, body),
    onSuccess: (updated) => {
      // Show the new name at once in every cached list, then refetch them.
      queryClient.setQueriesData<Device[]>({ queryKey: devicesKeys.lists }, (list) =>
        Array.isArray(list) ? list.map((device) => (device._id === updated._id ? updated : device)) : list,
      );
      return queryClient.invalidateQueries({ queryKey: devicesKeys.lists });
    },
  });
}
