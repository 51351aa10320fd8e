import type { LoginBody } from '@sentinela/contract';
import { useMutation } from '@tanstack/react-query';
import type { Authenticated } from './sign-in';

/** Loads the sign-in calls (and zod with their answers' schemas) apart from /login's first paint (ADR 0040). */
export const loadSignIn = () => import('./sign-in');

export function useSignIn(onAuthenticated?: (authenticated: Authenticated) => void) {
  return useMutation({ mutationFn: async (credentials: LoginBody) => (await loadSignIn()).signIn(credentials, onAuthenticated) });
}
