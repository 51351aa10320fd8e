import {
  Subscription, SubscriptionChangeResponse, SuccessMessageResponse,
  type SubscriptionChangeBody,
} from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from './api-client';
import { dayjs } from './dayjs';
import { standingQueryOptions, subscriptionKeys } from './subscription-standing';

export { STANDING_STALE_MS, subscriptionKeys } from './subscription-standing';

// The enterprise's subscription (ADR 32), shared by /plans, /complete-register step 3 and the signed-in shell's
// overdue/restricted banner.

/** Financeiro (A9), where invoices are paid. */
export const FINANCIAL_PATH = '/financial';

/** DD/MM/YYYY in local time. */
export const formatDay = (iso: string) => dayjs.utc(iso).local().format('DD/MM/YYYY');

/** GET /api/subscription: null while the enterprise has none (a 404). Administrators only. */
export function useSubscription(enabled = true) {
  return useQuery({
    queryKey: subscriptionKeys.all,
    enabled,
    queryFn: async ({ signal }) => {
      try {
        return await apiRequest('/api/subscription', { schema: Subscription, signal });
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
  });
}

/**
 * GET /api/subscription/standing: overdue or restricted, for every user of the enterprise (ADR 39). Read once when
 * the signed-in shell opens and again on a later screen change once older than STANDING_STALE_MS — never on a timer:
 * every authorized request slides the session window (P2), and a timer would keep an idle tab signed in for ever.
 * A payment seen on screen and a 402 of a restricted action refresh it at once.
 */
export function useSubscriptionStanding(enabled: boolean) {
  return useQuery({ ...standingQueryOptions(), enabled });
}

/** Everything shown about the subscription or its invoices changes with a plan change or a payment. */
function useRefreshSubscription() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: subscriptionKeys.all }),
      queryClient.invalidateQueries({ queryKey: ['enterprise-plan'] }),
      queryClient.invalidateQueries({ queryKey: ['invoices'] }),
    ]);
}

/** PUT /api/subscription */
export function useChangeSubscription() {
  const refresh = useRefreshSubscription();
  return useMutation({
    mutationFn: (body: SubscriptionChangeBody) => apiRequest('/api/subscription', { method: 'PUT', body, schema: SubscriptionChangeResponse }),
    onSuccess: () => refresh(),
  });
}

/** DELETE /api/subscription/pending-change */
export function useCancelPendingChange() {
  const refresh = useRefreshSubscription();
  return useMutation({
    mutationFn: () => apiRequest('/api/subscription/pending-change', { method: 'DELETE', schema: SuccessMessageResponse }),
    onSuccess: () => refresh(),
  });
}

/** The refresh after an invoice is seen paid (the banner and the subscription's status change with it). */
export function useRefreshAfterPayment() {
  return useRefreshSubscription();
}
