import { CreateEnterpriseResponse, Profile, type CreateEnterpriseBody } from '@sentinela/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { enterprisesKeys } from '../../../components/EnterprisePicker';
import { apiRequest } from '../../../lib/api-client';

export interface NewEnterprise {
  name: string;
  email: string;
  password: string;
}

/**
 * POST /api/client/create/ (M3), with the documented body less the username: the server derives the admin's
 * username, name and profile itself and ignores what the client says about them.
 */
export function createEnterprise({ name, email, password }: NewEnterprise): Promise<CreateEnterpriseResponse> {
  const body: CreateEnterpriseBody & { user: Record<string, unknown> } = {
    client: { name },
    user: { name, email, password, userType: Profile.EnterpriseAdmin, available_devices: [], disabled: false, verified: true },
  };
  return apiRequest('/api/client/create/', { method: 'POST', body, schema: CreateEnterpriseResponse });
}

export function useCreateEnterprise() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createEnterprise,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enterprisesKeys.all }),
  });
}
