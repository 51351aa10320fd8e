import { CreatedGateway, Gateway, GatewayConnection, GatewayList, OkResponse, type CreateGatewayBody } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const gatewayKeys = {
  all: ['gateways'] as const,
  list: () => [...gatewayKeys.all, 'list'] as const,
  connection: () => [...gatewayKeys.all, 'connection'] as const,
};

/** GET /api/gateways: the caller's gateways (its enterprise's, or all for the super admin), newest first. */
export const useGateways = () =>
  useQuery({ queryKey: gatewayKeys.list(), queryFn: ({ signal }) => apiRequest('/api/gateways', { schema: GatewayList, signal }) });

/** GET /api/gateways/connection: where this server takes readings (for the instructions shown with a new key). */
export const useGatewayConnection = () =>
  useQuery({
    queryKey: gatewayKeys.connection(),
    queryFn: ({ signal }) => apiRequest('/api/gateways/connection', { schema: GatewayConnection, signal }),
    staleTime: Infinity,
  });

function useInvalidatingMutation<A, R>(mutationFn: (args: A) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn, onSuccess: () => queryClient.invalidateQueries({ queryKey: gatewayKeys.list() }) });
}

/** POST /api/gateways: a new gateway; the answer holds its key, shown only this once. */
export const useCreateGateway = () =>
  useInvalidatingMutation((body: CreateGatewayBody) => apiRequest('/api/gateways', { method: 'POST', body, schema: CreatedGateway }));

/** PUT /api/gateways/{id}: a new name. */
export const useRenameGateway = () =>
  useInvalidatingMutation(({ id, name }: { id: string; name: string }) =>
    apiRequest(`/api/gateways/${encodeURIComponent(id)}`, { method: 'PUT', body: { name }, schema: Gateway }),
  );

/** DELETE /api/gateways/{id}: revokes the key at once (connected MQTT gateways are dropped). */
export const useRevokeGateway = () =>
  useInvalidatingMutation((id: string) => apiRequest(`/api/gateways/${encodeURIComponent(id)}`, { method: 'DELETE', schema: OkResponse }));
