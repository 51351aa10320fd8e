import { LiveStatusBadge } from '../../../components/LiveStatusBadge';
import type { LiveState } from '../live/controller';

/** Whether the screen receives live updates of the travel (T6). */
export function LiveBadge({ state }: { state: LiveState | null }) {
  return <LiveStatusBadge status={state?.status ?? null} error={state?.error} />;
}
