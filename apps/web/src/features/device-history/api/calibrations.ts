import { Calibration, CalibrationLimits, CalibrationList, type CalibrationPoint } from '@sentinela/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest, apiUpload } from '../../../lib/api-client';
import { downloadFile } from '../../../lib/download';
import { deviceHistoryKeys } from './keys';

/** GET /api/devices/{id}/calibrations (X12): the device's certificates, the one in force first. */
export const useCalibrations = (deviceId: string, enabled: boolean) =>
  useQuery({
    queryKey: deviceHistoryKeys.calibrations(deviceId),
    queryFn: ({ signal }) => apiRequest(`/api/devices/${encodeURIComponent(deviceId)}/calibrations`, { schema: CalibrationList, signal }),
    enabled,
  });

/** GET /api/calibrations/limits: the largest certificate the server takes, checked before sending it. */
export const useCalibrationLimits = () =>
  useQuery({
    queryKey: ['calibrations', 'limits'],
    queryFn: ({ signal }) => apiRequest('/api/calibrations/limits', { schema: CalibrationLimits, signal }),
    staleTime: Infinity,
  });

export interface NewCalibration {
  deviceId: string;
  calibrated_at: string;
  due_at: string;
  laboratory: string;
  certificate_number: string;
  points: CalibrationPoint[];
  file: File;
  onProgress?: (fraction: number) => void;
}

/** POST /api/devices/{id}/calibrations, multipart: the fields, then the PDF as `certificate`. */
export function addCalibration({ deviceId, file, onProgress, points, ...fields }: NewCalibration): Promise<Calibration> {
  return apiUpload(`/api/devices/${encodeURIComponent(deviceId)}/calibrations`, file, {
    fields: { ...fields, points: JSON.stringify(points) },
    fileField: 'certificate',
    schema: Calibration,
    onProgress,
  });
}

export function useAddCalibration(deviceId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addCalibration,
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: deviceHistoryKeys.calibrations(deviceId) });
      // The due date shown with the device (its header and the device lists).
      await queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
  });
}

/** GET /api/calibrations/{id}/certificate: the PDF as it was sent. */
export function downloadCertificate(calibration: Pick<Calibration, '_id' | 'file_name'>): Promise<string> {
  return downloadFile(`/api/calibrations/${encodeURIComponent(calibration._id)}/certificate`, calibration.file_name);
}
