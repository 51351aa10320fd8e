import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { LiveStatusBadge } from '../../../components/LiveStatusBadge';
import type { LiveDevicesStatus } from '../../../lib/live-device-states';
import { getSession } from '../../../lib/session';
import { followDeviceList } from './follow-device-list';

/**
 * Keeps a devices list of the query cache live while it is shown, and says so with the "Ao vivo" badge. Loaded
 * after the screen's first paint (React.lazy), with the socket client: the screen's first load carries neither
 * (ADR 0040, 0049).
 */
export default function LiveDevices({ queryKey }: { queryKey: QueryKey }) {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveDevicesStatus | null>(null);
  // The key by value: a new array of the same key must not reconnect.
  const keyText = JSON.stringify(queryKey);

  useEffect(() => {
    const token = getSession()?.token;
    if (!token) return;
    const stop = followDeviceList({ queryClient, queryKey: JSON.parse(keyText) as QueryKey, token, onStatus: setStatus });
    return () => {
      stop();
      setStatus(null);
    };
  }, [keyText, queryClient]);

  return <LiveStatusBadge status={status} />;
}
