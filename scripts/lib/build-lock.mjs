// @ts-check
/**
 * One web build at a time in a checkout (X14, ADR 68): two `npm start` runs in one folder must not run `vite build`
 * into the same dist/ at once (each would delete or overwrite the other's files half-way). The lock is a file created
 * with O_EXCL holding the builder's pid; a lock whose process is gone (killed mid-build) is taken over.
 */
import { linkSync, openSync, readFileSync, renameSync, rmSync, writeSync, closeSync } from 'node:fs';

/** @param {number} pid */
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return /** @type {NodeJS.ErrnoException} */ (err).code === 'EPERM';
  }
}

/** @param {string} file */
function holderOf(file) {
  try {
    return Number(readFileSync(file, 'utf8').trim()) || 0;
  } catch {
    return 0;
  }
}

/**
 * Creates the lock already holding this process's pid, or returns false when it exists. The pid is written to a file of
 * this process's own first and then hard-linked into place (link fails when the name exists), so no other process can
 * ever read the lock empty and take it for a stale one.
 * @param {string} file
 */
function createHolding(file) {
  const mine = `${file}.${process.pid}.new`;
  const fd = openSync(mine, 'w');
  try {
    writeSync(fd, String(process.pid));
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(mine, file);
    return true;
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code !== 'EEXIST') throw err;
    return false;
  } finally {
    rmSync(mine, { force: true });
  }
}

/**
 * Runs `work` holding the lock `file`, waiting (polling) while another live process holds it.
 * @template T
 * @param {string} file
 * @param {() => Promise<T>} work
 * @param {{ onWait?: (pid: number) => void, pollMs?: number }} [options]
 * @returns {Promise<T>}
 */
export async function withBuildLock(file, work, { onWait, pollMs = 250 } = {}) {
  let told = false;
  for (;;) {
    if (createHolding(file)) break;
    const holder = holderOf(file);
    if (holder && alive(holder)) {
      if (!told) onWait?.(holder);
      told = true;
      await new Promise((resolve) => setTimeout(resolve, pollMs));
      continue;
    }
    // A stale lock. Moved aside atomically (only one process can move a given file); if what was moved is not the
    // stale lock seen (another process took the lock meanwhile), it is put back.
    const aside = `${file}.${process.pid}`;
    try {
      renameSync(file, aside);
    } catch {
      continue;
    }
    if (holderOf(aside) !== holder) {
      try {
        linkSync(aside, file);
      } catch { /* a third process holds it now; the one moved aside is lost, which only costs it a wait */ }
    }
    rmSync(aside, { force: true });
  }
  try {
    return await work();
  } finally {
    // Only this process's own lock is removed: never one another process took over meanwhile.
    if (holderOf(file) === process.pid) rmSync(file, { force: true });
  }
}
