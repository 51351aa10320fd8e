import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * House rule: a feature never imports another feature, and shared code (components/, lib/) imports no feature.
 * What two features share moves to components/ or lib/; only app/ (routes, layout) puts features together.
 */
const SRC = path.resolve(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) ? [full] : [];
  });
}

/** The src-relative target of every relative import of a file (static and dynamic). */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)'(\.[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)));
}

function featureOf(srcRelative: string): string | null {
  const parts = srcRelative.split(path.sep);
  return parts[0] === 'features' && parts.length > 1 ? parts[1]! : null;
}

describe('web architecture', () => {
  const files = sourceFiles(SRC).map((file) => ({ file, at: path.relative(SRC, file) }));

  it('finds the sources it checks', () => {
    expect(files.filter((f) => featureOf(f.at) !== null).length).toBeGreaterThan(50);
  });

  it('no feature imports another feature', () => {
    const crossings = files.flatMap(({ file, at }) => {
      const own = featureOf(at);
      if (!own) return [];
      return importsOf(file)
        .filter((target) => featureOf(target) !== null && featureOf(target) !== own)
        .map((target) => `${at} → ${target}`);
    });
    expect(crossings).toEqual([]);
  });

  it('components/ and lib/ import no feature', () => {
    const crossings = files
      .filter(({ at }) => at.startsWith(`components${path.sep}`) || at.startsWith(`lib${path.sep}`))
      .flatMap(({ file, at }) => importsOf(file).filter((target) => featureOf(target) !== null).map((target) => `${at} → ${target}`));
    expect(crossings).toEqual([]);
  });

  it('every Table.ScrollContainer scrolls natively (the build leaves Mantine\'s ScrollArea out of it: ADR 0048)', () => {
    const containers = files.flatMap(({ file, at }) =>
      [...readFileSync(file, 'utf8').matchAll(/<Table\.ScrollContainer\b[^>]*>/g)].map((m) => ({ at, tag: m[0] })),
    );
    expect(containers.filter(({ tag }) => !tag.includes('type="native"'))).toEqual([]);
  });
});
