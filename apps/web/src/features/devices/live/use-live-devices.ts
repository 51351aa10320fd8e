import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { LiveDevicesStatus } from '../../../lib/live-device-states';
import { getSession } from '../../../lib/session';

/**
 * Follows a devices list live while the screen shows it (null key: nothing to follow yet). The socket client and the
 * follower load after the first paint, in their own chunk: the screen's first load does not carry them (ADR 0049).
 * Answers the status for the screen's badge (null until the follower has loaded).
 */
export function useLiveDevices(queryKey: QueryKey | null): LiveDevicesStatus | null {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveDevicesStatus | null>(null);
  // The key by value: a new array of the same key must not reconnect.
  const keyText = queryKey ? JSON.stringify(queryKey) : null;

  useEffect(() => {
    const token = getSession()?.token;
    if (keyText === null || !token) return;
    let stop: (() => void) | null = null;
    let cancelled = false;
    void import('./follow-device-list').then(({ followDeviceList }) => {
      if (!cancelled) stop = followDeviceList({ queryClient, queryKey: JSON.parse(keyText) as QueryKey, token, onStatus: setStatus });
    });
    return () => {
      cancelled = true;
      stop?.();
      setStatus(null);
    };
  }, [keyText, queryClient]);

  return status;
}
