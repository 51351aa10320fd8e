import { NotificationChannelList, NotificationSettings, TelegramLinkResponse, type NotificationChannel } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const settingsKey = ['notification-settings'] as const;

/** GET /api/me/config/notification-channel/status: each channel, on or off, usable or why not. */
export const useNotificationSettings = () =>
  useQuery({ queryKey: settingsKey, queryFn: () => apiRequest('/api/me/config/notification-channel/status', { schema: NotificationSettings }) });

/** POST (on) or DELETE (off) /api/me/config/notification-channel with `{ channel }`. */
export function useToggleChannel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ channel, on }: { channel: NotificationChannel; on: boolean }) =>
      apiRequest('/api/me/config/notification-channel', { method: on ? 'POST' : 'DELETE', body: { channel }, schema: NotificationChannelList }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKey }),
  });
}

/** DELETE /api/me/telegram: "Desvincular". */
export function useUnlinkTelegram() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/api/me/telegram', { method: 'DELETE', schema: TelegramLinkResponse }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: settingsKey }),
  });
}
