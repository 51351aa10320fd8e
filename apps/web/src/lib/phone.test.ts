import { describe, expect, it } from 'vitest';
import { maskPhone } from './phone';

describe('maskPhone', () => {
  it('writes (99) 99999-9999 as the digits come, and drops what is not a digit', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1198765')).toBe('(11) 9876-5');
    expect(maskPhone('1198765432')).toBe('(11) 9876-5432');
    expect(maskPhone('11987654321')).toBe('(11) 98765-4321');
    expect(maskPhone('(11) 98765-43219999')).toBe('(11) 98765-4321');
    expect(maskPhone('a1b1c9')).toBe('(11) 9');
  });
});
