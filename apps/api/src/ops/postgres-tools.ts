import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';

/**
 * The machine's PostgreSQL client programs (pg_dump, pg_restore), found as scripts/lib/postgres.mjs finds the server's:
 * `pg_config --bindir`, then /usr/lib/postgresql/<version>/bin (Debian keeps each major version there), then PATH.
 * pg_dump refuses a server newer than itself, and pg_restore an archive made by a newer pg_dump: the newest major
 * version on the machine is taken, and checked against the server (ADR 67).
 */
function candidateDirs(): string[] {
  const dirs: string[] = [];
  try {
    dirs.push(execFileSync('pg_config', ['--bindir'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
  } catch {
    /* not on PATH */
  }
  if (existsSync('/usr/lib/postgresql')) {
    for (const version of readdirSync('/usr/lib/postgresql')) dirs.push(`/usr/lib/postgresql/${version}/bin`);
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) if (dir) dirs.push(dir);
  return dirs;
}

/** The major version a client program reports (`pg_dump (PostgreSQL) 15.14`), or 0. */
function majorOf(program: string): number {
  try {
    const text = execFileSync(program, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    return Number(/\(PostgreSQL\)\s+(\d+)/.exec(text)?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/** The newest `name` on the machine with its major version, or null. */
export function findPostgresProgram(name: 'pg_dump' | 'pg_restore'): { path: string; major: number } | null {
  let best: { path: string; major: number } | null = null;
  for (const dir of new Set(candidateDirs())) {
    const program = path.join(dir, name);
    if (!existsSync(program)) continue;
    const major = majorOf(program);
    if (major > (best?.major ?? 0)) best = { path: program, major };
  }
  return best;
}
