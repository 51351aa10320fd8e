import { describe, expect, it } from 'vitest';
import { pdfLiteral } from './text-rows';
import { toWinAnsi, winAnsiByte } from './win-ansi';

describe('toWinAnsi', () => {
  it('leaves Portuguese and the typographic marks WinAnsi has untouched', () => {
    const text = 'Relatório de temperatura: ç ã é º ° — “aspas” … € ™';
    expect(toWinAnsi(text)).toBe(text);
  });

  it('replaces what the built-in fonts cannot print', () => {
    expect(toWinAnsi('a → b ≤ 8 − 2')).toBe('a -> b <= 8 - 2');
    expect(toWinAnsi('Gdańsk Łódź 東京 🚚')).toBe('Gdansk ?ódz ?? ?');
    expect(toWinAnsi('linha\tcom\rcontrole\u0007')).toBe('linha comcontrole ');
  });
});

describe('pdfLiteral', () => {
  it('escapes delimiters and writes bytes outside ASCII as WinAnsi octal escapes', () => {
    expect(pdfLiteral('12,50')).toBe('12,50');
    expect(pdfLiteral('(a\\b)')).toBe('\\(a\\\\b\\)');
    expect(pdfLiteral('Média °C …')).toBe('M\\351dia \\260C \\205');
    expect(winAnsiByte('—'.charCodeAt(0))).toBe(0x97);
  });
});
