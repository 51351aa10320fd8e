import { UploadFolder } from '../../lib/form-upload';

/**
 * Where calibration certificates live: one folder (CALIBRATIONS_DIR, default `DATA_DIR/calibrations`, in backups).
 * An upload is written to a temporary name and moved to `<calibration id>.pdf` once its record is accepted.
 */
export class CalibrationStorage extends UploadFolder {
  constructor(dir: string) {
    super(dir, 'calibration');
  }

  keep(temporary: string, calibrationId: string): Promise<string> {
    return this.keepAs(temporary, `${calibrationId}.pdf`);
  }
}
