import { FaqItem, Plan, z } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/plans (A1). */
export const usePlans = () => useQuery({ queryKey: ['plans'], queryFn: () => apiRequest('/api/plans', { auth: 'none', schema: z.array(Plan) }) });

/** GET /api/faq (A1). */
export const useFaq = () => useQuery({ queryKey: ['faq'], queryFn: () => apiRequest('/api/faq', { auth: 'none', schema: z.array(FaqItem) }) });
