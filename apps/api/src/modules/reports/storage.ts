import { randomBytes } from 'node:crypto';
import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * Where report files live: under one folder (REPORTS_DIR), by month of generation. The database records the path
 * relative to that folder, so the folder can move with its files. Names carry a random part: two attempts at the
 * same report never write the same file, and only the one recorded is kept.
 */
export class ReportStorage {
  constructor(readonly dir: string) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
  }

  newFile(reportId: string, extension: string, at: Date): { relative: string; absolute: string } {
    const month = at.toISOString().slice(0, 7);
    const relative = path.posix.join(month, `${reportId}-${randomBytes(4).toString('hex')}.${extension}`);
    return { relative, absolute: this.absolute(relative) };
  }

  /** The file's size, or null when it is not there. */
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
    // Paths come from our own rows, but a path that leaves the folder is never served.
    if (!absolute.startsWith(path.resolve(this.dir) + path.sep)) throw new Error(`report path outside the reports folder: ${relative}`);
    return absolute;
  }
}
