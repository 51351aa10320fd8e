import { FaqItem, z } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export { usePlans } from '../../../lib/plans-query';

/** GET /api/faq (A1). */
export const useFaq = () => useQuery({ queryKey: ['faq'], queryFn: () => apiRequest('/api/faq', { auth: 'none', schema: z.array(FaqItem) }) });
