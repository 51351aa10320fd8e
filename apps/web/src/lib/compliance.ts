import { ComplianceSettings, Profile } from '@sentinela/contract';
import { useQuery } from '@tanstack/react-query';
import { apiRequest } from './api-client';
import { useSession } from './session';

export const complianceKey = (enterpriseId: string | null) => ['compliance', enterpriseId] as const;

/** GET /api/enterprise/compliance (X11): whether the signed-in user's enterprise is in GxP mode. */
export function fetchCompliance(enterpriseId?: string): Promise<ComplianceSettings> {
  const query = enterpriseId ? `?enterprise_id=${encodeURIComponent(enterpriseId)}` : '';
  return apiRequest(`/api/enterprise/compliance${query}`, { schema: ComplianceSettings });
}

/**
 * What the forms of GxP records ask (ADR 0061, 0062): `gxp` when the user's enterprise is in GxP mode (a reason for
 * change is required, acknowledgements are signed). The super admin has no enterprise of their own: their changes may
 * touch any, so `mayNeedReason` is true and the reason field is shown, optional, to them.
 */
export function useCompliance(): { gxp: boolean; mayNeedReason: boolean; loading: boolean } {
  const session = useSession();
  const superAdmin = session?.user.profile._id === Profile.SuperAdmin;
  const query = useQuery({
    queryKey: complianceKey(session?.enterprise?._id ?? null),
    queryFn: () => fetchCompliance(),
    enabled: !!session && !superAdmin,
    staleTime: 60_000,
  });
  const gxp = query.data?.gxp ?? false;
  return { gxp, mayNeedReason: gxp || superAdmin, loading: query.isPending && !superAdmin && !!session };
}
