import { EnterprisePlanResponse } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

const key = ['enterprise-plan'] as const;

/** GET /api/enterprise/plan: the current plan and a pending change, for every user (changes: lib/subscription). */
export const useEnterprisePlan = () => useQuery({ queryKey: key, queryFn: () => apiRequest('/api/enterprise/plan', { schema: EnterprisePlanResponse }) });
