import { ApiTokenList, CreatedApiToken, OkResponse, type CreateApiTokenBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const apiTokenKeys = {
  all: ['api-tokens'] as const,
  list: () => [...apiTokenKeys.all, 'list'] as const,
};

/** GET /api/api-tokens: the enterprise's tokens (never their values), newest first. */
export const useApiTokens = () =>
  useQuery({ queryKey: apiTokenKeys.list(), queryFn: ({ signal }) => apiRequest('/api/api-tokens', { schema: ApiTokenList, signal }) });

function useInvalidatingMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: apiTokenKeys.list() }) });
}

/** POST /api/api-tokens: a new token; the answer holds its value, shown only this once. */
export const useCreateApiToken = () =>
  useInvalidatingMutation((body: CreateApiTokenBody) => apiRequest('/api/api-tokens', { method: 'POST', body, schema: CreatedApiToken }));

/** DELETE /api/api-tokens/{id}: revokes the token at once. */
export const useRevokeApiToken = () =>
  useInvalidatingMutation((id: string) => apiRequest(`/api/api-tokens/${encodeURIComponent(id)}`, { method: 'DELETE', schema: OkResponse }));
