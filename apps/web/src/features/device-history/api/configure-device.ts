import { Device, type UpdateDeviceBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';
import { deviceHistoryKeys } from './keys';

export type ConfigureDeviceBody = z.input<typeof UpdateDeviceBody>;

/** PUT /api/devices/{id} → the device with its new name and limits (D4). */
export function configureDevice(id: string, body: ConfigureDeviceBody): Promise<Device> {
  return apiRequest(`/api/devices/${encodeURIComponent(id)}`, { method: 'PUT', body, schema: Device });
}

export function useConfigureDevice(id: string, mac: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ConfigureDeviceBody) => configureDevice(id, body),
    onSuccess: (device) => {
      queryClient.setQueryData(deviceHistoryKeys.device(id), device);
      // The lists show the name, the charts the limits, the events log the change.
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.deviceLists }),
        queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.history(mac) }),
        queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.events(mac) }),
      ]);
    },
  });
}
