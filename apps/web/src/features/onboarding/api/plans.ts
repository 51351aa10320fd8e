import { Plan, z } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/**
 * GET /api/plans (A11): the plans /plans offers. Kept in this feature (the landing page has its own): a module in
 * lib/ shared by both lazy screens made a shared chunk that broke the expired-session notice on a reopened tab.
 */
export const usePlans = () => useQuery({ queryKey: ['plans'], queryFn: () => apiRequest('/api/plans', { auth: 'none', schema: z.array(Plan) }) });
