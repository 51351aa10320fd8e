import { createReadStream, type ReadStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * One folder of files the database points to by a path relative to the folder (reports, firmware), so the folder can
 * move with its files. Paths come from our own rows, but one that would leave the folder is never touched.
 */
export class FileFolder {
  constructor(
    readonly dir: string,
    /** What the folder holds, for the error of a path outside it. */
    private readonly holds: string,
  ) {}

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
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

  protected absolute(relative: string): string {
    const absolute = path.resolve(this.dir, relative);
    if (!absolute.startsWith(path.resolve(this.dir) + path.sep)) throw new Error(`${this.holds} path outside its folder: ${relative}`);
    return absolute;
  }
}
