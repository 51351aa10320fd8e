import { describe, expect, it } from 'vitest';
import { isAboveCurrent, maskVersion } from './version-mask';

describe('maskVersion', () => {
  it('keeps three digits with dots between them, whatever is typed or pasted', () => {
    expect(maskVersion('')).toBe('');
    expect(maskVersion('1')).toBe('1');
    expect(maskVersion('10')).toBe('1.0');
    expect(maskVersion('1.0.2')).toBe('1.0.2');
    expect(maskVersion('v1.2.3.4')).toBe('1.2.3');
    expect(maskVersion('abc')).toBe('');
  });
});

describe('isAboveCurrent', () => {
  it('compares part by part; equal or lower is refused, anything goes when there is none', () => {
    expect(isAboveCurrent('1.0.1', '1.0.0')).toBe(true);
    expect(isAboveCurrent('2.0.0', '1.9.9')).toBe(true);
    expect(isAboveCurrent('1.0.0', '1.0.0')).toBe(false);
    expect(isAboveCurrent('0.9.9', '1.0.0')).toBe(false);
    expect(isAboveCurrent('0.0.0', null)).toBe(true);
    expect(isAboveCurrent('1.0', null)).toBe(false);
  });
});
