import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

interface Redirect {
  /** The Mantine module whose import is redirected (its path ends so). */
  importer: RegExp;
  /** The import redirected within it. */
  source: (source: string) => boolean;
  /** The module it is pointed at, relative to this file. */
  to: string;
}

/**
 * Imports inside Mantine that pull code our screens never run, pointed at smaller stand-ins (only that one import in
 * that one module; every other user of the same code keeps the real one):
 * - ScrollArea imports only `useMergeRefs` from @floating-ui/react: pointed at a copy of the hook
 *   (`src/lib/merge-refs.ts`), so screens with a table or a scrolling list don't load the positioning library for it
 *   (ADR 0040). Any other name imported there would fail the build, not pass silently.
 * - Table.ScrollContainer imports ScrollArea for its default `type="scrollarea"`; the app's scroll containers are
 *   `type="native"` (an architecture test requires it), so that import is pointed at a stand-in that throws if
 *   rendered (ADR 0048).
 */
const REDIRECTS: readonly Redirect[] = [
  {
    importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/,
    source: (source) => source === '@floating-ui/react',
    to: './src/lib/merge-refs.ts',
  },
  {
    importer: /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Table[\\/]TableScrollContainer\.mjs$/,
    source: (source) => /(^|[\\/])ScrollArea\.mjs$/.test(source),
    to: './src/lib/table-scroll-stand-in.ts',
  },
];

export function mantineImportRedirects(): Plugin {
  const targets = REDIRECTS.map((redirect) => ({ ...redirect, path: fileURLToPath(new URL(redirect.to, import.meta.url)) }));
  return {
    name: 'sentinela-mantine-import-redirects',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      return targets.find((target) => target.importer.test(importer) && target.source(source))?.path ?? null;
    },
  };
}
