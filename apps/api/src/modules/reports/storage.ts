import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { FileFolder } from '../../lib/file-folder';

/**
 * Where report files live: under one folder (REPORTS_DIR), by month of generation. The database records the path
 * relative to that folder, so the folder can move with its files. Names carry a random part: two attempts at the
 * same report never write the same file, and only the one recorded is kept.
 */
export class ReportStorage extends FileFolder {
  constructor(dir: string) {
    super(dir, 'report');
  }

  newFile(reportId: string, extension: string, at: Date): { relative: string; absolute: string } {
    const month = at.toISOString().slice(0, 7);
    const relative = path.posix.join(month, `${reportId}-${randomBytes(4).toString('hex')}.${extension}`);
    return { relative, absolute: this.absolute(relative) };
  }

  read(relative: string): Promise<Buffer> {
    return readFile(this.absolute(relative));
  }
}
