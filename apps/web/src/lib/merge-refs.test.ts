import { createRef } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { renderHook } from '@testing-library/react';
import { useMergeRefs } from './merge-refs';

describe('useMergeRefs (the stand-in for ScrollArea, ADR 0040)', () => {
  it('sets every ref to the element and clears them when it goes', () => {
    const objectRef = createRef<HTMLDivElement>();
    const callbackRef = vi.fn();
    const { result } = renderHook(() => useMergeRefs<HTMLDivElement>([objectRef, callbackRef, undefined]));
    const element = document.createElement('div');

    result.current?.(element);
    expect(objectRef.current).toBe(element);
    expect(callbackRef).toHaveBeenLastCalledWith(element);

    result.current?.(null);
    expect(objectRef.current).toBeNull();
    expect(callbackRef).toHaveBeenLastCalledWith(null);
  });

  it('runs a callback ref’s own clean-up instead of calling it with null', () => {
    const cleanup = vi.fn();
    const callbackRef = vi.fn(() => cleanup);
    const { result } = renderHook(() => useMergeRefs<HTMLDivElement>([callbackRef]));
    result.current?.(document.createElement('div'));
    result.current?.(null);
    expect(cleanup).toHaveBeenCalledTimes(1);
    expect(callbackRef).toHaveBeenCalledTimes(1);
  });

  it('is null when there is no ref to merge', () => {
    const { result } = renderHook(() => useMergeRefs<HTMLDivElement>([undefined, null]));
    expect(result.current).toBeNull();
  });
});
