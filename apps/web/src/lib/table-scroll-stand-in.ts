/**
 * Stands in for Mantine's ScrollArea inside Table.ScrollContainer (vite plugin `mantineImportRedirects`): with
 * `type="native"` the container is a plain scrolling div and never renders it, and leaving ScrollArea out keeps
 * ~5 kB gzip off every screen with a table (ADR 0048). A container without `type="native"` fails loudly here.
 */
export function ScrollArea(): never {
  throw new Error('Table.ScrollContainer needs type="native" (ADR 0048)');
}
