import { formatDecimal, formatQuantity, formatRange, pluralize } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';
import { alarmMessage } from './format';

/** The one pt-BR helper for numbers, ranges and counts in sentences (issue 26, P7). */
describe('pt-BR numbers, ranges and counts in texts', () => {
  it('decimals: a comma, always two digits, never "-0,00"', () => {
    expect(formatDecimal(90.5)).toBe('90,50');
    expect(formatDecimal(30)).toBe('30,00');
    expect(formatDecimal(-15.285)).toBe('-15,29');
    expect(formatDecimal(-0.001)).toBe('0,00');
    expect(formatQuantity(4.5, '°C')).toBe('4,50 °C');
  });

  it('ranges join their ends with "a", so a negative end is never read as the separator', () => {
    expect(formatRange(-15.29, -14, '°C')).toBe('-15,29 a -14,00 °C');
    expect(formatRange(30, 90.5, '%')).toBe('30,00 a 90,50 %');
    expect(formatRange(2, null, '°C')).toBe('mínimo 2,00 °C');
    expect(formatRange(null, 8, '°C')).toBe('máximo 8,00 °C');
    expect(formatRange(5, 5, '°C')).toBe('5,00 °C');
    expect(formatRange(null, null, '°C')).toBe('--');
    expect(formatRange(null, undefined, '°C', { none: 'Sem limites' })).toBe('Sem limites');
  });

  it('counts: only one is singular', () => {
    expect(pluralize(1, 'minuto', 'minutos')).toBe('1 minuto');
    expect(pluralize(0, 'minuto', 'minutos')).toBe('0 minutos');
    expect(pluralize(30, 'minuto', 'minutos')).toBe('30 minutos');
    expect(pluralize(1500, 'leitura', 'leituras')).toBe('1.500 leituras');
  });

  it('an alarm of a device silent for more than one minute says "1 minuto"', () => {
    expect(alarmMessage('no_data', 1)).toBe('Sem dados há mais de 1 minuto');
    expect(alarmMessage('no_data', 60)).toBe('Sem dados há mais de 60 minutos');
    expect(alarmMessage('temperature_low', -22)).toBe('Temperatura abaixo do limite mínimo (-22,00 °C)');
  });
});
