import { Device, type RegisterBeaconBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client';

/** POST /api/beacon-device (X1): one beacon, outside any enterprise until it is linked. */
export function registerBeacon(body: z.input<typeof RegisterBeaconBody>): Promise<Device> {
  return apiRequest('/api/beacon-device', { method: 'POST', body, schema: Device });
}

export function useRegisterBeacon() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: registerBeacon,
    // The discovered list loses the MAC; device lists elsewhere gain it.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
