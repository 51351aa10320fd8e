import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type ReadStream, type WriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where firmware files live: one folder (FIRMWARE_DIR). An upload is written to a temporary name first and moved
 * to its final one only when its version is accepted; the database records the path relative to the folder.
 */
export class FirmwareStorage {
  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
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

  async size(relative: string): Promise<number | null> {
    try {
      return (await stat(this.absolute(relative))).size;
    } catch {
      return null;
    }
  }

  open(relative: string): ReadStream {
    return createReadStream(this.absolute(relative));
  }

  async remove(relative: string): Promise<void> {
    await rm(this.absolute(relative), { force: true });
  }

  private absolute(relative: string): string {
    const absolute = path.resolve(this.dir, relative);
    // Paths come from our own rows, but a path that leaves the folder is never touched.
    if (!absolute.startsWith(path.resolve(this.dir) + path.sep)) throw new Error(`firmware path outside the firmware folder: ${relative}`);
    return absolute;
  }
}
