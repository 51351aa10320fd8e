import { AdminFaqItem, AdminFaqList, AdminPlan, AdminPlanList, OkResponse, type FaqBody, type PlanBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const plansAdminKeys = {
  plans: ['admin', 'plans'] as const,
  faq: ['admin', 'faq'] as const,
};

/** GET /api/admin/plans: every plan, retired ones too, with its subscribers. */
export const useAdminPlans = () =>
  useQuery({ queryKey: plansAdminKeys.plans, queryFn: ({ signal }) => apiRequest('/api/admin/plans', { schema: AdminPlanList, signal }) });

/** GET /api/admin/faq: the landing page's questions in their order. */
export const useAdminFaq = () => useQuery({ queryKey: plansAdminKeys.faq, queryFn: ({ signal }) => apiRequest('/api/admin/faq', { schema: AdminFaqList, signal }) });

function useRefreshing<A, R>(key: QueryKey, mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  // The public lists (landing page, /plans) read the same rows.
  return useMutation({
    mutationFn,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: key }), queryClient.invalidateQueries({ queryKey: ['plans'] }), queryClient.invalidateQueries({ queryKey: ['faq'] })]),
  });
}

const planPath = (id: string) => `/api/admin/plans/${encodeURIComponent(id)}`;
const faqPath = (id: string) => `/api/admin/faq/${encodeURIComponent(id)}`;

/** POST /api/admin/plans, or PUT /api/admin/plans/{id} when editing. */
export const useSavePlan = () =>
  useRefreshing(plansAdminKeys.plans, ({ id, body }: { id: string | null; body: PlanBody }) =>
    apiRequest(id ? planPath(id) : '/api/admin/plans', { method: id ? 'PUT' : 'POST', body, schema: AdminPlan }),
  );

/** POST /api/admin/plans/{id}/retire or /restore. */
export const useSetPlanRetired = () =>
  useRefreshing(plansAdminKeys.plans, ({ id, retired }: { id: string; retired: boolean }) =>
    apiRequest(`${planPath(id)}/${retired ? 'retire' : 'restore'}`, { method: 'POST', schema: AdminPlan }),
  );

/** DELETE /api/admin/plans/{id}: only a plan without subscribers. */
export const useDeletePlan = () => useRefreshing(plansAdminKeys.plans, (id: string) => apiRequest(planPath(id), { method: 'DELETE', schema: OkResponse }));

export const useSaveFaq = () =>
  useRefreshing(plansAdminKeys.faq, ({ id, body }: { id: string | null; body: FaqBody }) =>
    apiRequest(id ? faqPath(id) : '/api/admin/faq', { method: id ? 'PUT' : 'POST', body, schema: AdminFaqItem }),
  );

export const useDeleteFaq = () => useRefreshing(plansAdminKeys.faq, (id: string) => apiRequest(faqPath(id), { method: 'DELETE', schema: OkResponse }));

/** PUT /api/admin/faq/order: the whole list in its new order. */
export const useReorderFaq = () =>
  useRefreshing(plansAdminKeys.faq, (ids: string[]) => apiRequest('/api/admin/faq/order', { method: 'PUT', body: { ids }, schema: AdminFaqList }));
