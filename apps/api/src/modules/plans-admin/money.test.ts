import { formatBrlInput, numberToCents, parseBrlCents } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';

/** The one parser of typed money (contract money.ts, ADR 75), used by the plan schemas and the web's form. */
describe('money as typed in Brazil (issue 26)', () => {
  it('reads pt-BR amounts into whole centavos', () => {
    expect(parseBrlCents('1.234,56')).toBe(123456);
    expect(parseBrlCents('R$ 1.234,56')).toBe(123456);
    expect(parseBrlCents(' 149,9 ')).toBe(14990);
    expect(parseBrlCents('0,29')).toBe(29);
    expect(parseBrlCents('1234,56')).toBe(123456);
    expect(parseBrlCents('1.234')).toBe(123400);
    expect(parseBrlCents('1.000.000,00')).toBe(100000000);
    expect(parseBrlCents('149.90')).toBe(14990);
    expect(parseBrlCents('0')).toBe(0);
  });

  it('refuses what is not an amount', () => {
    for (const text of ['', 'R$', '-1,00', '1,999', '12.34.56', '1,234,56', '1.23,45', 'abc', '1e9', 'NaN', '1.234.5', ',50', '9'.repeat(30)]) {
      expect(parseBrlCents(text), text).toBeNull();
    }
  });

  it('JSON numbers: at most two decimals, never pt-BR thousands', () => {
    expect(numberToCents(149.9)).toBe(14990);
    expect(numberToCents(0.29)).toBe(29);
    expect(numberToCents(1.234)).toBeNull();
    expect(numberToCents(-1)).toBeNull();
    expect(numberToCents(Number.NaN)).toBeNull();
  });

  it('shows centavos for editing the way the parser reads them back', () => {
    for (const cents of [0, 29, 14990, 152900, 100000000]) expect(parseBrlCents(formatBrlInput(cents))).toBe(cents);
    expect(formatBrlInput(152900)).toBe('1.529,00');
  });
});
