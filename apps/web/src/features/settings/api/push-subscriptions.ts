import { NotificationChannelList, OkResponse, PushSubscriptionInfo, PushSubscriptionList, VapidPublicKey } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiError, apiRequest } from '../../../lib/api-client';
import { currentSubscription, subscribeThisBrowser } from '../push/browser-push';
import { settingsKey } from './notification-channels';

const subscriptionsKey = ['push-subscriptions'] as const;
const thisBrowserKey = ['push-subscription-this-browser'] as const;

/** GET /api/me/push-subscriptions: the browsers the signed-in user turned push on in. */
export const usePushSubscriptions = () =>
  useQuery({ queryKey: subscriptionsKey, queryFn: () => apiRequest('/api/me/push-subscriptions', { schema: PushSubscriptionList }) });

/** The endpoint of this browser's push subscription, if it has one. */
export const useThisBrowserEndpoint = (enabled: boolean) =>
  useQuery({ queryKey: thisBrowserKey, queryFn: async () => (await currentSubscription())?.endpoint ?? null, enabled, retry: false });

function useInvalidatePush() {
  const queryClient = useQueryClient();
  return () => Promise.all([settingsKey, subscriptionsKey, thisBrowserKey].map((queryKey) => queryClient.invalidateQueries({ queryKey })));
}

/**
 * Turns push on from this browser: the server's VAPID key, the permission and the subscription (browser-push),
 * POST /api/me/push-subscriptions, then POST /api/me/config/notification-channel { channel: 'push' }.
 */
export function useEnablePush() {
  const invalidate = useInvalidatePush();
  return useMutation({
    mutationFn: async () => {
      const { public_key } = await apiRequest('/api/push/vapid-public-key', { schema: VapidPublicKey });
      const subscription = await subscribeThisBrowser(public_key);
      await apiRequest('/api/me/push-subscriptions', { method: 'POST', body: subscription, schema: PushSubscriptionInfo });
      return apiRequest('/api/me/config/notification-channel', { method: 'POST', body: { channel: 'push' }, schema: NotificationChannelList });
    },
    onSettled: invalidate,
  });
}

/** Turns push off, and forgets this browser's subscription (on the server and with its push service). */
export function useDisablePush() {
  const invalidate = useInvalidatePush();
  return useMutation({
    mutationFn: async () => {
      const channels = await apiRequest('/api/me/config/notification-channel', { method: 'DELETE', body: { channel: 'push' }, schema: NotificationChannelList });
      const subscription = await currentSubscription().catch(() => null);
      if (subscription) {
        try {
          await apiRequest('/api/me/push-subscriptions', { method: 'DELETE', body: { endpoint: subscription.endpoint }, schema: OkResponse });
        } catch (error) {
          // Already forgotten by the server (expired, or moved to whoever signed in here since): still unsubscribe.
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
        await subscription.unsubscribe();
      }
      return channels;
    },
    onSettled: invalidate,
  });
}
