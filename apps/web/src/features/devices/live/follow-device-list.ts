import type { Device, LocationDeviceState } from '@sentinela/contract';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { mergeLiveStates } from '../../../components/device-state/live-merge';
import { followDeviceStates, type LiveDevicesStatus } from '../../../lib/live-device-states';
import type { AlarmsSocket } from '../../../lib/live-alarms';

/** States arriving within this window are written to the list at once: one render per window, whatever the burst. */
export const MERGE_WINDOW_MS = 200;

interface Options {
  queryClient: QueryClient;
  /** The devices list in the query cache (Meus Dispositivos' or a client's). */
  queryKey: QueryKey;
  token: string;
  onStatus: (status: LiveDevicesStatus) => void;
  connect?: (token: string) => Promise<AlarmsSocket>;
}

/**
 * Keeps a devices list of the query cache live (D1, D2, ADR 0049): each state is merged into its row (newest
 * values, last sync), never a refetch; the list is fetched again only when it may be out of date (reconnection,
 * devices linked or unlinked). Loaded after the screen's first paint, with the socket client.
 */
export function followDeviceList({ queryClient, queryKey, token, onStatus, connect }: Options): () => void {
  let pending = new Map<string, LocationDeviceState>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flush = () => {
    timer = undefined;
    const states = [...pending.values()];
    pending = new Map();
    queryClient.setQueryData<Device[]>(queryKey, (list) => mergeLiveStates(list, states));
  };
  const stop = followDeviceStates(
    token,
    {
      onStates(states) {
        for (const state of states) {
          const earlier = pending.get(state._id);
          // The newest of a device wins; a value the newer state lacks keeps the earlier one's.
          if (!earlier || Date.parse(state.lastSyncDate) >= Date.parse(earlier.lastSyncDate)) {
            pending.set(state._id, earlier ? { ...state, temperature: state.temperature ?? earlier.temperature, humidity: state.humidity ?? earlier.humidity, battery: state.battery ?? earlier.battery } : state);
          }
        }
        timer ??= setTimeout(flush, MERGE_WINDOW_MS);
      },
      onStale: () => void queryClient.invalidateQueries({ queryKey, exact: true }),
      onStatus,
    },
    connect,
  );
  return () => {
    clearTimeout(timer);
    stop();
  };
}
