import { randomBytes } from 'node:crypto';
import { UploadFolder } from '../../lib/form-upload';

/**
 * Where firmware files live: one folder (FIRMWARE_DIR). An upload is written to a temporary name first and moved
 * to its final one only when its version is accepted; the database records the path relative to the folder.
 */
export class FirmwareStorage extends UploadFolder {
  constructor(dir: string) {
    super(dir, 'firmware');
  }

  /** Moves an accepted upload to its final name, `<version>-<random>.bin`, and answers that name. */
  keep(temporary: string, version: string): Promise<string> {
    return this.keepAs(temporary, `${version}-${randomBytes(6).toString('hex')}.bin`);
  }
}
