import { Plan, z } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';

/** GET /api/plans (A1, A11): the landing page and /plans show the same plans. */
export const usePlans = () => useQuery({ queryKey: ['plans'], queryFn: () => apiRequest('/api/plans', { auth: 'none', schema: z.array(Plan) }) });
