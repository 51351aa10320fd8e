import { DeviceList, MappingStudy, MappingStudyList, Profile, ReportStatus, type CreateMappingStudyBody, type SessionUser } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client';
import { locationKeys } from './keys';

/**
 * GET /api/mapping-studies (X12, ADR 0083): the enterprise's thermal mapping studies with their reports. Polled every
 * few seconds while a report is being generated, so its status and PDF link appear without a reload.
 */
export function useMappingStudies(enabled: boolean) {
  return useQuery({
    queryKey: locationKeys.mappingStudies,
    queryFn: ({ signal }) => apiRequest('/api/mapping-studies', { schema: MappingStudyList, signal }),
    enabled,
    refetchInterval: (query) => (query.state.data?.some((s) => s.report.status.id === ReportStatus.Queued) ? 3000 : false),
  });
}

/** POST /api/mapping-studies: starts a study; its report is queued. */
export function useCreateMappingStudy() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: CreateMappingStudyBody) => apiRequest('/api/mapping-studies', { method: 'POST', body, schema: MappingStudy }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: locationKeys.mappingStudies }),
  });
}

/** The sensors a study may use: the enterprise's devices (every device for the super admin). */
export function useStudyDevices(user: Pick<SessionUser, '_id' | 'profile'>, enabled: boolean) {
  const path = user.profile._id === Profile.SuperAdmin ? '/api/beacon-device/allAdmin' : '/api/beacon-device/all';
  return useQuery({
    queryKey: locationKeys.studyDevices(user._id),
    queryFn: ({ signal }) => apiRequest(path, { schema: DeviceList, signal }),
    enabled,
  });
}
