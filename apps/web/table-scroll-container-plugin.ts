import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

const standIn = fileURLToPath(new URL('./src/lib/table-scroll-stand-in.ts', import.meta.url));

/**
 * Mantine's Table imports ScrollArea for Table.ScrollContainer's default `type="scrollarea"`; every screen with a table
 * loaded it (~5 kB gzip) whether or not it scrolled that way. The app's scroll containers are `type="native"` (the
 * browser's scrolling, as DataTable's: ADR 0040), so this points that one import at a stand-in that throws if rendered
 * (ADR 0048). Other users of ScrollArea (the alarms popover, a few tabs) import the real one.
 */
export function tableScrollContainerNative(): Plugin {
  return {
    name: 'sentinela-table-scroll-container-native',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer || !/[\\/]@mantine[\\/]core[\\/]esm[\\/]components[\\/]Table[\\/]TableScrollContainer\.mjs$/.test(importer)) return null;
      return /(^|[\\/])ScrollArea\.mjs$/.test(source) ? standIn : null;
    },
  };
}
