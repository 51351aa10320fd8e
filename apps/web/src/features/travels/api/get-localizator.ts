import { Travel } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { travelKeys } from './keys';

/**
 * GET /api/travels/localizator/{cod}: a travel by its tracking code. Visitors ask without a token (the public view);
 * signed-in users send theirs. A wrong or finished code, and a burst of guesses (429), answer the server's message.
 */
export function localizatorQueryOptions(code: string, signedIn: boolean) {
  return queryOptions({
    queryKey: travelKeys.localizator(code),
    queryFn: ({ signal }) =>
      apiRequest(`/api/travels/localizator/${encodeURIComponent(code)}`, {
        schema: Travel,
        signal,
        auth: signedIn ? 'session' : 'none',
      }),
    // A code answers the same travel; its live updates come through the socket.
    staleTime: 30_000,
  });
}

export function useLocalizator(code: string | null, signedIn: boolean) {
  return useQuery({ ...localizatorQueryOptions(code ?? '', signedIn), enabled: !!code });
}
