import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const standIn = fileURLToPath(new URL('./src/lib/merge-refs.ts', import.meta.url));

/**
 * Mantine's ScrollArea imports only `useMergeRefs` from @floating-ui/react; this points that one import at a copy of
 * the hook (src/lib/merge-refs.ts), so screens with a table or a scrolling list no longer load the positioning library
 * for it (ADR 0040). Any other name imported there would fail the build, not pass silently.
 */
export function scrollAreaMergeRefs(): Plugin {
  return {
    name: 'sentinela-scroll-area-merge-refs',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source !== '@floating-ui/react' || !importer) return null;
      return /[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]ScrollArea[\\/]ScrollArea\.mjs$/.test(importer) ? standIn : null;
    },
  };
}
