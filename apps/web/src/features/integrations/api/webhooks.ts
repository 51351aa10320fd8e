import {
  CreatedWebhook,
  OkResponse,
  Webhook,
  WebhookDelivery,
  WebhookDeliveryList,
  WebhookList,
  type CreateWebhookBody,
  type UpdateWebhookBody,
} from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const webhookKeys = {
  all: ['webhooks'] as const,
  list: () => [...webhookKeys.all, 'list'] as const,
  deliveries: (id: string) => [...webhookKeys.all, 'deliveries', id] as const,
};

const at = (id: string) => `/api/webhooks/${encodeURIComponent(id)}`;

/** GET /api/webhooks: the enterprise's webhooks, newest first. */
export const useWebhooks = () =>
  useQuery({ queryKey: webhookKeys.list(), queryFn: ({ signal }) => apiRequest('/api/webhooks', { schema: WebhookList, signal }) });

/**
 * GET /api/webhooks/{id}/deliveries: the newest deliveries with their attempts. Polled every 3 s while one is still
 * pending (a test just sent, a retry due), so the log shows the outcome without a reload.
 */
export const useWebhookDeliveries = (id: string | null) =>
  useQuery({
    queryKey: webhookKeys.deliveries(id ?? 'none'),
    queryFn: ({ signal }) => apiRequest(`${at(id!)}/deliveries`, { schema: WebhookDeliveryList, signal }),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.some((d) => d.status === 'pending') ? 3000 : false),
  });

function useWebhookMutation<A, R>(mutationFn: (args: A) => Promise<R>, deliveriesOf?: (args: A) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: (_result, args) => {
      void queryClient.invalidateQueries({ queryKey: webhookKeys.list() });
      if (deliveriesOf) void queryClient.invalidateQueries({ queryKey: webhookKeys.deliveries(deliveriesOf(args)) });
    },
  });
}

/** POST /api/webhooks: a new webhook; the answer holds its signing secret, shown only this once. */
export const useCreateWebhook = () =>
  useWebhookMutation((body: CreateWebhookBody) => apiRequest('/api/webhooks', { method: 'POST', body, schema: CreatedWebhook }));

/** PUT /api/webhooks/{id}: URL, events, description, or enabled again / disabled. */
export const useUpdateWebhook = () =>
  useWebhookMutation(({ id, body }: { id: string; body: UpdateWebhookBody }) => apiRequest(at(id), { method: 'PUT', body, schema: Webhook }));

/** DELETE /api/webhooks/{id}: the webhook and its delivery log. */
export const useDeleteWebhook = () => useWebhookMutation((id: string) => apiRequest(at(id), { method: 'DELETE', schema: OkResponse }));

/** POST /api/webhooks/{id}/test: a webhook.test event, queued at once. */
export const useTestWebhook = () =>
  useWebhookMutation(
    (id: string) => apiRequest(`${at(id)}/test`, { method: 'POST', schema: WebhookDelivery }),
    (id) => id,
  );

/** POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver: one more attempt of a finished delivery. */
export const useRedeliver = () =>
  useWebhookMutation(
    ({ id, deliveryId }: { id: string; deliveryId: string }) =>
      apiRequest(`${at(id)}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`, { method: 'POST', schema: WebhookDelivery }),
    ({ id }) => id,
  );
