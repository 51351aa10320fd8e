import { SuccessMessageResponse, type EnterpriseAddressBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { enterpriseAddressQuery } from '../../../lib/registration';

/** GET /api/enterprise/address. */
export const useEnterpriseAddress = () => useQuery(enterpriseAddressQuery);

/** POST /api/enterprise/address: Salvar of step 2 (the stepper reads the same query, so step 2 turns done). */
export function useSaveEnterpriseAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: EnterpriseAddressBody) => apiRequest('/api/enterprise/address', { method: 'POST', body, schema: SuccessMessageResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enterpriseAddressQuery.queryKey }),
  });
}
