import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** How long a hashed asset of an earlier build stays after a build stops using it (X14, ADR 68). */
export const RETIRED_ASSET_DAYS = 14;

/**
 * Deploys that do not break open pages (X14, ADR 68). A page opened before a deploy still holds the old index.html,
 * whose lazy chunks have hashed names the new build does not make; were they deleted, its next screen would fail to
 * load. So the build does not empty `dist/` (vite.config.ts: emptyOutDir false) and, once written, retires what it no
 * longer uses: each asset the new build does not reference is noted with the time it was retired (in
 * `.vite/retired-assets.json`) and deleted `RETIRED_ASSET_DAYS` later — whenever the previous build was made, a page
 * gets that long, after the deploy that replaced its build, before its files go.
 */
export function keepPreviousAssets(): Plugin {
  return {
    name: 'sentinela-keep-previous-assets',
    apply: 'build',
    writeBundle(options, bundle) {
      if (!options.dir) return;
      retireAssets(options.dir, new Set(Object.keys(bundle)), Date.now());
    },
  };
}

/**
 * Notes the assets of `outDir/assets` that `current` (paths relative to outDir) does not hold as retired now, and
 * deletes those retired more than `keepDays` ago. Returns what it deleted and what it keeps retired.
 */
export function retireAssets(outDir: string, current: ReadonlySet<string>, now: number, keepDays = RETIRED_ASSET_DAYS): { deleted: string[]; retired: string[] } {
  const assetsDir = path.join(outDir, 'assets');
  const ledgerFile = path.join(outDir, '.vite', 'retired-assets.json');
  const ledger: Record<string, number> = existsSync(ledgerFile) ? (JSON.parse(readFileSync(ledgerFile, 'utf8')) as Record<string, number>) : {};
  const next: Record<string, number> = {};
  const deleted: string[] = [];
  const files = existsSync(assetsDir) ? readdirSync(assetsDir) : [];
  for (const name of files) {
    const relative = `assets/${name}`;
    if (current.has(relative)) continue;
    const retiredAt = ledger[relative] ?? now;
    if (now - retiredAt > keepDays * 24 * 60 * 60 * 1000) {
      rmSync(path.join(assetsDir, name), { force: true });
      deleted.push(relative);
    } else next[relative] = retiredAt;
  }
  mkdirSync(path.dirname(ledgerFile), { recursive: true });
  writeFileSync(ledgerFile, `${JSON.stringify(next, null, 2)}\n`);
  return { deleted, retired: Object.keys(next) };
}
