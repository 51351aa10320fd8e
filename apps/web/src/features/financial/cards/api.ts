import { CardListResponse, OkResponse, PaymentCard } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { withQuery } from '../../../lib/paths';

export const cardKeys = {
  all: ['cards'] as const,
  list: (enterpriseId: string | undefined) => [...cardKeys.all, 'list', enterpriseId ?? 'own'] as const,
};

/** GET /api/cards: the enterprise's cards, and where the browser tokenises a new one (null: no provider). */
export const useCards = (enterpriseId: string | undefined) =>
  useQuery({
    queryKey: cardKeys.list(enterpriseId),
    queryFn: ({ signal }) => apiRequest(withQuery('/api/cards', { enterprise_id: enterpriseId }), { schema: CardListResponse, signal }),
  });

function useCardMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: cardKeys.all }) });
}

/** POST /api/cards: only the provider's token (and the super admin's enterprise) goes to our server. */
export const useAddCard = () =>
  useCardMutation((body: { token: string; enterprise_id?: string }) => apiRequest('/api/cards', { method: 'POST', body, schema: PaymentCard }));

/** POST /api/cards/{id}/main: "Tornar Principal". */
export const useMakeMainCard = () =>
  useCardMutation((id: string) => apiRequest(`/api/cards/${encodeURIComponent(id)}/main`, { method: 'POST', schema: PaymentCard }));

/** DELETE /api/cards/{id}: removed at the provider and here. */
export const useRemoveCard = () =>
  useCardMutation((id: string) => apiRequest(`/api/cards/${encodeURIComponent(id)}`, { method: 'DELETE', schema: OkResponse }));
