import { useCallback, useMemo, useRef, type Ref, type RefCallback } from 'react';

/**
 * `useMergeRefs` of @floating-ui/react 0.27 (MIT), the one thing Mantine's ScrollArea takes from that library. Mantine's
 * Table scrolls through ScrollArea, so without this stand-in every screen with a table loaded the whole positioning
 * library (~15 kB gzip) for it; scroll-area-merge-refs-plugin.ts points ScrollArea's import here (ADR 0040).
 * Same behaviour: one callback ref that sets each ref, and clears them (or runs React 19 ref clean-ups) on change.
 */
export function useMergeRefs<T>(refs: ReadonlyArray<Ref<T> | undefined>): RefCallback<T> | null {
  const cleanupRef = useRef<(() => void) | undefined>(undefined);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the refs themselves are the dependencies, as upstream
  const refEffect = useCallback((instance: T) => {
    const cleanups = refs.map((ref) => {
      if (ref == null) return undefined;
      if (typeof ref === 'function') {
        const cleanup = ref(instance);
        return typeof cleanup === 'function' ? cleanup : () => void ref(null);
      }
      (ref as { current: T | null }).current = instance;
      return () => {
        (ref as { current: T | null }).current = null;
      };
    });
    return () => {
      for (const cleanup of cleanups) cleanup?.();
    };
  }, refs);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- as above
  return useMemo(() => {
    if (refs.every((ref) => ref == null)) return null;
    return (value: T | null) => {
      if (cleanupRef.current) {
        cleanupRef.current();
        cleanupRef.current = undefined;
      }
      if (value != null) cleanupRef.current = refEffect(value);
    };
  }, refs);
}
