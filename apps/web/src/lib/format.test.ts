import { describe, expect, it } from 'vitest';
import { dayjs } from './dayjs';
import { formatBRL, numberToCents } from '@sentinela/contract';
import {
  formatCardDateTime,
  formatDate,
  formatDateTime,
  formatDateTimeMinutes,
  formatHumidity,
  formatInteger,
  formatShortDateTime,
  formatTemperature,
  formatTimeOfDay,
  formatHumidityRange,
  formatTemperatureRange,
  pluralize,
  truncate,
} from './format';

// vitest.config.ts runs the tests in America/Sao_Paulo (UTC-3, no daylight saving since 2019).
describe('pt-BR formats (P7)', () => {
  it('ranges say "a" between their ends, with two decimals: a minus is never read as the separator', () => {
    expect(formatTemperatureRange(-15.29, -14)).toBe('-15,29 a -14,00 °C');
    expect(formatHumidityRange(30, 90.5)).toBe('30,00 a 90,50 %');
    expect(formatTemperatureRange(2, null)).toBe('mínimo 2,00 °C');
    expect(formatTemperatureRange(null, null, 'sem limites')).toBe('sem limites');
    expect(formatTemperature(-0.001)).toBe('0,00 °C');
  });

  it('counts take the singular only for one', () => {
    expect(pluralize(1, 'minuto', 'minutos')).toBe('1 minuto');
    expect(pluralize(2, 'minuto', 'minutos')).toBe('2 minutos');
    expect(pluralize(0, 'registro', 'registros')).toBe('0 registros');
  });

  it('formats BRL with dot thousands and decimal comma (the contract\'s one formatter, from centavos)', () => {
    expect(formatBRL(123456)).toBe('R$ 1.234,56');
    expect(formatBRL(numberToCents(250)!)).toBe('R$ 250,00');
    expect(formatBRL(numberToCents(1234567.89)!)).toBe('R$ 1.234.567,89');
    expect(formatBRL(-550)).toBe('-R$ 5,50');
    // Reais that binary floating point cannot hold exactly still give their centavos; three decimals are no amount.
    expect(numberToCents(0.29)).toBe(29);
    expect(numberToCents(19.99)).toBe(1999);
    expect(numberToCents(1.005)).toBeNull();
  });

  it('converts UTC times to local time in the three date formats', () => {
    expect(formatDateTime('2024-01-15T13:04:05.000Z')).toBe('15/01/2024 10:04:05');
    expect(formatShortDateTime('2024-01-15T13:04:05Z')).toBe('15/01 10:04:05');
    expect(formatDateTimeMinutes('2024-01-15T02:30:00Z')).toBe('14/01/2024 23:30');
    // A time without offset is UTC as well.
    expect(formatDateTime('2024-01-15 13:04:05')).toBe('15/01/2024 10:04:05');
  });

  it('reads and shows dates as dayjs in UTC mode did (the formats no longer load dayjs: ADR 0048)', () => {
    const inputs: (string | number | Date)[] = [
      '2024-01-15T13:04:05.000Z',
      '2024-01-15T13:04:05.5Z',
      '2024-01-15T13:04:05+02:00',
      '2024-01-15T13:04:05.123-03:00',
      '2024-01-15 13:04:05',
      '2024-01-15T13:04',
      '2024-01-15',
      '2024-12-31T23:59:59.999',
      '20240115',
      1_705_323_845_000,
      new Date('2024-06-01T00:00:00Z'),
    ];
    const formats: [(value: string | number | Date) => string, string][] = [
      [formatDate, 'DD/MM/YYYY'],
      [formatDateTime, 'DD/MM/YYYY HH:mm:ss'],
      [formatShortDateTime, 'DD/MM HH:mm:ss'],
      [formatTimeOfDay, 'HH:mm'],
      [formatCardDateTime, 'DD/MM/YYYY H:mm:ss'],
      [formatDateTimeMinutes, 'DD/MM/YYYY HH:mm'],
    ];
    for (const input of inputs) {
      for (const [format, pattern] of formats) expect(format(input), `${String(input)} as ${pattern}`).toBe(dayjs.utc(input).local().format(pattern));
    }
    expect(formatCardDateTime('2024-01-15T08:04:05Z')).toBe('15/01/2024 5:04:05');
  });

  it('shows -- for missing or invalid dates', () => {
    expect(formatDateTime(null)).toBe('--');
    expect(formatDateTime(undefined)).toBe('--');
    expect(formatDateTime('not a date')).toBe('--');
  });

  it('formats temperature and humidity with two decimals and a comma', () => {
    expect(formatTemperature(23.5)).toBe('23,50 °C');
    expect(formatTemperature(-4.126)).toBe('-4,13 °C');
    expect(formatHumidity(45.1)).toBe('45,10 %');
    expect(formatHumidity(null)).toBe('--');
  });

  it('formats integers with dot thousands', () => {
    expect(formatInteger(1234567)).toBe('1.234.567');
  });

  it('truncates with an ellipsis only above the limit', () => {
    expect(truncate('a'.repeat(30), 30)).toBe('a'.repeat(30));
    expect(truncate('usuario.com.nome.longo@empresa-exemplo.com.br', 30)).toBe('usuario.com.nome.longo@empresa...');
    expect(truncate('Frigorífico Boa Vista Ltda', 20)).toBe('Frigorífico Boa Vist...');
  });
});
