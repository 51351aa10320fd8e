import { useMemo, useState, type Ref, type RefCallback } from 'react';

type Refs<T> = ReadonlyArray<Ref<T> | undefined>;

const sameRefs = <T>(a: Refs<T>, b: Refs<T>) => a.length === b.length && a.every((ref, index) => ref === b[index]);

/** Sets `ref` to `instance`; answers how to undo it (a React 19 callback ref may bring its own clean-up). */
function attach<T>(ref: Ref<T> | undefined, instance: T): (() => void) | undefined {
  if (ref == null) return undefined;
  if (typeof ref === 'function') {
    const cleanup = ref(instance);
    return typeof cleanup === 'function' ? cleanup : () => void ref(null);
  }
  ref.current = instance;
  return () => {
    ref.current = null;
  };
}

/**
 * `useMergeRefs` of @floating-ui/react 0.27 (MIT), the one thing Mantine's ScrollArea takes from that library. Mantine's
 * Table scrolls through ScrollArea, so without this stand-in every screen with a table loaded the whole positioning
 * library (~15 kB gzip) for it; mantine-import-redirects-plugin.ts points ScrollArea's import here (ADR 0040).
 * Same behaviour: one callback ref, new only when one of the refs changes, that sets each ref and clears them (or
 * runs their own clean-ups) when the element goes.
 */
export function useMergeRefs<T>(refs: Refs<T>): RefCallback<T> | null {
  const [current, setCurrent] = useState(refs);
  if (!sameRefs(current, refs)) setCurrent(refs);

  return useMemo(() => {
    if (current.every((ref) => ref == null)) return null;
    let cleanups: Array<(() => void) | undefined> = [];
    return (value: T | null) => {
      for (const cleanup of cleanups) cleanup?.();
      cleanups = value == null ? [] : current.map((ref) => attach(ref, value));
    };
  }, [current]);
}
