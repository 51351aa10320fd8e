import { EnterpriseAddressResponse, SuccessMessageResponse, type EnterpriseAddressBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const key = ['enterprise-address'] as const;

/** GET /api/enterprise/address. */
export const useEnterpriseAddress = () => useQuery({ queryKey: key, queryFn: () => apiRequest('/api/enterprise/address', { schema: EnterpriseAddressResponse }) });

/** POST /api/enterprise/address: Salvar of step 2. */
export function useSaveEnterpriseAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EnterpriseAddressBody) => apiRequest('/api/enterprise/address', { method: 'POST', body, schema: SuccessMessageResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
