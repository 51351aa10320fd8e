import { MonitorView } from '@sentinela/contract';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /api/monitor/{token}: the monitor's view, without the session (a wall display has none; and a signed-in
 * browser's session must neither be sent nor be ended by this page's answers).
 */
export const fetchMonitor = (token: string, signal?: AbortSignal) =>
  apiRequest(`/api/monitor/${encodeURIComponent(token)}`, { auth: 'none', schema: MonitorView, signal });
