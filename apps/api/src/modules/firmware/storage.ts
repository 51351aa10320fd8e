import { randomBytes } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rename } from 'node:fs/promises';
import { FileFolder } from '../../lib/file-folder';

/**
 * Where firmware files live: one folder (FIRMWARE_DIR). An upload is written to a temporary name first and moved
 * to its final one only when its version is accepted; the database records the path relative to the folder.
 */
export class FirmwareStorage extends FileFolder {
  constructor(dir: string) {
    super(dir, 'firmware');
  }

  /** A fresh temporary file for an upload in progress (same folder: the final move is a rename). */
  newTemporary(): { relative: string; stream: WriteStream } {
    const relative = `.upload-${randomBytes(8).toString('hex')}.part`;
    return { relative, stream: createWriteStream(this.absolute(relative), { flags: 'wx' }) };
  }

  /** Moves an accepted upload to its final name, `<version>-<random>.bin`, and answers that name. */
  async keep(temporary: string, version: string): Promise<string> {
    const relative = `${version}-${randomBytes(6).toString('hex')}.bin`;
    await rename(this.absolute(temporary), this.absolute(relative));
    return relative;
  }
}
