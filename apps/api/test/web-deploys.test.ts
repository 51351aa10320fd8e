import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retireAssets, RETIRED_ASSET_DAYS } from '../../web/keep-previous-assets-plugin';
import { createTestContext, type TestContext } from './context';

/**
 * X14 Operations, deploys that do not break open pages (ADR 68): a missing file is a 404 (never index.html sent as
 * JavaScript), a new build placed in WEB_DIST is served without a restart, earlier builds' assets stay for a while,
 * and two `npm start` runs in one folder never build at once.
 *
 * Database-agnostic (ADR 85): web files on disk and the build lock; the database is only what the app stands on.
 */
const DAY = 24 * 60 * 60 * 1000;
let ctx: TestContext;
let webDist: string;

function writeBuild(name: string, asset: string): void {
  mkdirSync(path.join(webDist, 'assets'), { recursive: true });
  writeFileSync(path.join(webDist, 'assets', asset), `console.log(${JSON.stringify(name)})`);
  writeFileSync(path.join(webDist, 'index.html'), `<!doctype html><title>${name}</title><script type="module" src="/assets/${asset}"></script>`);
}

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'sentinela-web-'));
  writeBuild('build one', 'index-aaaa1111.js');
  ctx = await createTestContext({ config: { webDist } });
});
afterAll(async () => {
  await ctx?.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('X14 web files served at request time', () => {
  it('answers 404 for a missing asset or file, and index.html for a screen', async () => {
    const asset = await ctx.request('GET', '/assets/index-gone0000.js');
    expect(asset.statusCode).toBe(404);
    expect(asset.headers['content-type']).not.toMatch(/html|javascript/);
    expect(asset.body).not.toContain('<!doctype html>');
    expect(asset.headers['cache-control']).toBe('no-store');
    for (const url of ['/assets/missing.css', '/favicon-missing.png', '/assets/chunk.js.map', '/sub/dir/thing.js']) {
      expect((await ctx.request('GET', url)).statusCode, url).toBe(404);
    }
    for (const url of ['/', '/device-history/C3:00:00:00:01:02/abc', '/reset-password?email=a@b.com.br', '/travels']) {
      const page = await ctx.request('GET', url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('build one');
    }
    const served = await ctx.request('GET', '/assets/index-aaaa1111.js');
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toMatch(/javascript/);
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await ctx.request('GET', '/api/nothing-here')).json().statusCode).toBe(404);
  });

  it('serves a new build placed in WEB_DIST without a restart, the old assets included', async () => {
    writeBuild('build two', 'index-bbbb2222.js');
    const page = await ctx.request('GET', '/locations');
    expect(page.body).toContain('build two');
    expect(page.body).toContain('/assets/index-bbbb2222.js');
    expect((await ctx.request('GET', '/')).body).toContain('build two');
    expect((await ctx.request('GET', '/assets/index-bbbb2222.js')).body).toContain('build two');
    // A page opened on build one still loads its files.
    expect((await ctx.request('GET', '/assets/index-aaaa1111.js')).statusCode).toBe(200);
  });
});

describe('X14 earlier builds kept by the web build', () => {
  it('retires assets no longer used and deletes them only after the retention', () => {
    const out = mkdtempSync(path.join(tmpdir(), 'sentinela-dist-'));
    try {
      mkdirSync(path.join(out, 'assets'));
      for (const name of ['old-1.js', 'old-2.css', 'new-1.js']) writeFileSync(path.join(out, 'assets', name), name);
      const t0 = Date.UTC(2026, 10, 1);
      // The build of t0 uses new-1.js only: the others are retired, nothing deleted yet.
      let result = retireAssets(out, new Set(['assets/new-1.js', 'index.html']), t0);
      expect(result.deleted).toEqual([]);
      expect(result.retired.sort()).toEqual(['assets/old-1.js', 'assets/old-2.css']);
      // A build a day before the retention ends: still there (their retirement time is kept, not renewed).
      result = retireAssets(out, new Set(['assets/new-1.js']), t0 + (RETIRED_ASSET_DAYS - 1) * DAY);
      expect(result.deleted).toEqual([]);
      expect(existsSync(path.join(out, 'assets', 'old-1.js'))).toBe(true);
      // After it: deleted; the current build's file stays whatever its age.
      result = retireAssets(out, new Set(['assets/new-1.js']), t0 + (RETIRED_ASSET_DAYS + 1) * DAY);
      expect(result.deleted.sort()).toEqual(['assets/old-1.js', 'assets/old-2.css']);
      expect(existsSync(path.join(out, 'assets', 'old-1.js'))).toBe(false);
      expect(existsSync(path.join(out, 'assets', 'new-1.js'))).toBe(true);
      expect(JSON.parse(readFileSync(path.join(out, '.vite', 'retired-assets.json'), 'utf8'))).toEqual({});
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});

describe('X14 one build at a time in a folder (npm start)', () => {
  const lockModule = path.resolve(__dirname, '../../../scripts/lib/build-lock.mjs');

  /** A process that takes the build lock and, holding it, writes "start" and "end" lines around a pause. */
  function builder(lock: string, log: string, name: string): Promise<number> {
    const code = `
      import { appendFileSync } from 'node:fs';
      import { withBuildLock } from ${JSON.stringify(lockModule)};
      await withBuildLock(${JSON.stringify(lock)}, async () => {
        appendFileSync(${JSON.stringify(log)}, 'start ${name}\\n');
        await new Promise((r) => setTimeout(r, 400));
        appendFileSync(${JSON.stringify(log)}, 'end ${name}\\n');
      }, { pollMs: 20 });`;
    return new Promise((resolve, reject) => {
      const child = spawn(process.execPath, ['--input-type=module', '-e', code], { stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (status) => resolve(status ?? 1));
    });
  }

  it('never lets two builders in at once, and takes over a lock whose process died', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sentinela-lock-'));
    try {
      const lock = path.join(dir, '.build.lock');
      const log = path.join(dir, 'log');
      // A lock left by a process that no longer exists (killed mid-build).
      const dead = spawn(process.execPath, ['-e', '0']);
      const deadPid = dead.pid!;
      await new Promise((resolve) => dead.on('exit', resolve));
      writeFileSync(lock, String(deadPid));

      const codes = await Promise.all(['a', 'b', 'c'].map((name) => builder(lock, log, name)));
      expect(codes).toEqual([0, 0, 0]);
      const lines = readFileSync(log, 'utf8').trim().split('\n');
      expect(lines).toHaveLength(6);
      // Strictly nested: each start is followed by the same builder's end.
      for (let i = 0; i < lines.length; i += 2) {
        expect(lines[i]).toMatch(/^start /);
        expect(lines[i + 1]).toBe(lines[i]!.replace('start', 'end'));
      }
      expect(existsSync(lock)).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
