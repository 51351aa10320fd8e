import { UserDetail, z } from '@sentinela/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';

export const usersKeys = {
  all: ['users'] as const,
  byClient: (clientId: string, disabled: boolean) => ['users', 'by-client', clientId, disabled] as const,
};

const UserList = z.array(UserDetail);

/** GET /api/users-by-client/{clientId}?disabled=: the active (false) or inactive (true) users of an enterprise. */
export function usersByClientQueryOptions(clientId: string, disabled: boolean) {
  return queryOptions({
    queryKey: usersKeys.byClient(clientId, disabled),
    queryFn: ({ signal }) =>
      apiRequest(`/api/users-by-client/${encodeURIComponent(clientId)}?disabled=${String(disabled)}`, { schema: UserList, signal }),
  });
}

export function useUsersByClient(clientId: string | null, disabled: boolean) {
  return useQuery({ ...usersByClientQueryOptions(clientId ?? '', disabled), enabled: !!clientId });
}
