import { AccountMessageResponse, EnterpriseAddressResponse, ProfileResponse, can } from '@sentinela/contract';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { useRequiredSession } from './session';
import { useSubscription } from './subscription';

/**
 * Where a new enterprise stands in /complete-register (A4, ADR 84), read from the server: the e-mail confirmed
 * (GET /api/profile), the address saved (GET /api/enterprise/address), the plan chosen with nothing left to pay
 * (GET /api/subscription). Shared by the page's stepper and Meus Dispositivos' empty state, with the same query keys
 * as the steps' own screens, so a save on one shows on the other.
 */
export const REGISTRATION_STEPS = [
  { key: 'email', label: 'Confirmar e-mail' },
  { key: 'address', label: 'Endereço' },
  { key: 'payment', label: 'Pagamento' },
] as const;

export type RegistrationStepKey = (typeof REGISTRATION_STEPS)[number]['key'];
/** done / todo as the server says; loading until it has answered; others when the step is the administrators'. */
export type RegistrationStepState = 'done' | 'todo' | 'loading' | 'error' | 'others';

export const profileQuery = queryOptions({
  queryKey: ['profile'] as const,
  queryFn: ({ signal }) => apiRequest('/api/profile', { schema: ProfileResponse, signal }),
});

export const enterpriseAddressQuery = queryOptions({
  queryKey: ['enterprise-address'] as const,
  queryFn: ({ signal }) => apiRequest('/api/enterprise/address', { schema: EnterpriseAddressResponse, signal }),
});

/** Address and payment are the enterprise's: only its administrators may read (and do) them. */
export function useIsEnterpriseAdmin(): boolean {
  const { user, enterprise } = useRequiredSession();
  return can(user.profile._id, 'enterprise:settings') && !!enterprise?._id;
}

const stateOf = (query: { isPending: boolean; isError: boolean }, done: () => boolean): RegistrationStepState =>
  query.isError ? 'error' : query.isPending ? 'loading' : done() ? 'done' : 'todo';

export function useRegistrationSteps(): Record<RegistrationStepKey, RegistrationStepState> {
  const admin = useIsEnterpriseAdmin();
  const profile = useQuery(profileQuery);
  const address = useQuery({ ...enterpriseAddressQuery, enabled: admin });
  const subscription = useSubscription(admin);
  return {
    email: stateOf(profile, () => profile.data?.verified === true),
    address: admin ? stateOf(address, () => !!address.data) : 'others',
    // Paid: a plan, and no invoice waiting (the first one is issued with the plan, ADR 32).
    payment: admin ? stateOf(subscription, () => !!subscription.data && !subscription.data.open_invoice) : 'others',
  };
}

/** POST /api/verify-email/resend: "Reenviar e-mail" (here and on /profile). */
export const useResendConfirmation = () =>
  useMutation({ mutationFn: () => apiRequest('/api/verify-email/resend', { method: 'POST', schema: AccountMessageResponse }) });
