import { BankAccountResponse } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/financial/bank-account: the platform's receiving account (null when the server has none). */
export const useBankAccount = () =>
  useQuery({
    queryKey: ['financial', 'bank-account'] as const,
    queryFn: ({ signal }) => apiRequest('/api/financial/bank-account', { schema: BankAccountResponse, signal }),
    staleTime: Infinity,
  });
