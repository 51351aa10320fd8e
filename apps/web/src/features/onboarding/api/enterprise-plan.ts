import { EnterprisePlanResponse, SuccessMessageResponse, type PlanChangeBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const key = ['enterprise-plan'] as const;

/** GET /api/enterprise/plan: the current plan and a pending change. */
export const useEnterprisePlan = () => useQuery({ queryKey: key, queryFn: () => apiRequest('/api/enterprise/plan', { schema: EnterprisePlanResponse }) });

/** POST /api/enterprise/plan: a plan chosen on /plans, for billing to charge. */
export function useRequestPlan() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: PlanChangeBody) => apiRequest('/api/enterprise/plan', { method: 'POST', body, schema: SuccessMessageResponse }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: key }),
  });
}
