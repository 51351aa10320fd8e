import { describe, expect, it } from 'vitest';
import {
  defaultFilter,
  filterFromSearch,
  filterToApiQuery,
  filterToForm,
  filterToSearch,
  formToFilter,
  type FilterFormValues,
} from './filter';

// vitest.config pins TZ=America/Sao_Paulo (UTC-3, no daylight saving since 2019).
const NOW = new Date('2024-03-10T15:00:00.000Z');

const form = (overrides: Partial<FilterFormValues> = {}): FilterFormValues => ({
  minTemp: '',
  maxTemp: '',
  minHum: '',
  maxHum: '',
  dateInit: '2024-03-01T10:00',
  dateEnd: '2024-03-01T12:30',
  isUtc: false,
  ...overrides,
});

function applied(values: FilterFormValues) {
  const result = formToFilter(values, NOW);
  if (!result.ok) throw new Error(JSON.stringify(result.errors));
  return result.filter;
}

describe('history filter → query', () => {
  it('reads typed dates as local time when "Filtrar data em UTC?" is Não', () => {
    const filter = applied(form());
    expect(filter.from).toBe('2024-03-01T13:00:00.000Z');
    // An end typed to the minute covers that whole minute.
    expect(filter.to).toBe('2024-03-01T15:30:59.999Z');
    const query = new URLSearchParams(filterToApiQuery(filter));
    expect(Object.fromEntries(query)).toEqual({
      dateInit: '2024-03-01T10:00:00',
      dateEnd: '2024-03-01T12:30:59',
      dateInitUtc: '2024-03-01T13:00:00.000Z',
      dateEndUtc: '2024-03-01T15:30:59.999Z',
      isUtc: 'false',
    });
  });

  it('takes typed dates as UTC when the switch is Sim', () => {
    const filter = applied(form({ isUtc: true }));
    expect(filter.from).toBe('2024-03-01T10:00:00.000Z');
    expect(filter.to).toBe('2024-03-01T12:30:59.999Z');
    const query = new URLSearchParams(filterToApiQuery(filter));
    expect(query.get('dateInit')).toBe('2024-03-01T10:00:00');
    expect(query.get('dateInitUtc')).toBe('2024-03-01T10:00:00.000Z');
    expect(query.get('isUtc')).toBe('true');
  });

  it('sends the numeric filters, accepting a decimal comma, and leaves empty ones out', () => {
    const filter = applied(form({ minTemp: -19.5, maxTemp: '-16,25', minHum: '', maxHum: 80 }));
    const query = new URLSearchParams(filterToApiQuery(filter));
    expect(query.get('minTemp')).toBe('-19.5');
    expect(query.get('maxTemp')).toBe('-16.25');
    expect(query.has('minHum')).toBe(false);
    expect(query.get('maxHum')).toBe('80');
  });

  it('refuses reversed ranges and non-numbers in Portuguese', () => {
    const result = formToFilter(
      form({ dateInit: '2024-03-02T10:00', minTemp: 5, maxTemp: 2, minHum: 'abc' }),
      NOW,
    );
    expect(result).toEqual({
      ok: false,
      errors: {
        minHum: 'Umidade mínima deve ser um número.',
        maxTemp: 'A temperatura mínima não pode ser maior que a máxima.',
        dateEnd: 'A data inicial deve ser anterior à data final.',
      },
    });
  });

  it('refuses, before asking the server, values and dates the server would refuse', () => {
    const result = formToFilter(form({ dateInit: '1969-12-31T20:00', dateEnd: '2200-01-01T00:00', minTemp: -81, maxHum: '100,5' }), NOW);
    expect(result).toEqual({
      ok: false,
      errors: {
        minTemp: 'Temperatura mínima fora da faixa permitida (-80 a 150 °C).',
        maxHum: 'Umidade máxima fora da faixa permitida (0 a 100 %).',
        dateInit: 'Data inicial inválida.',
        dateEnd: 'Data final inválida.',
      },
    });
  });

  it('defaults to the last two days, and fills empty dates the same way', () => {
    expect(defaultFilter(NOW)).toMatchObject({ from: '2024-03-08T15:00:00.000Z', to: NOW.toISOString(), isUtc: false });
    const filter = applied(form({ dateInit: '', dateEnd: '' }));
    expect(filter.from).toBe('2024-03-08T15:00:00.000Z');
    expect(filter.to).toBe(NOW.toISOString());
    expect(filterToForm(defaultFilter(NOW))).toMatchObject({ dateInit: '2024-03-08T12:00', dateEnd: '2024-03-10T12:00' });
  });

  it('round-trips through the URL query, keeping the tab and dropping the page', () => {
    const filter = applied(form({ minTemp: -19, isUtc: true }));
    const search = filterToSearch(filter, new URLSearchParams('tab=grafico&page=3'));
    expect(search.get('tab')).toBe('grafico');
    expect(search.has('page')).toBe(false);
    expect(search.get('minTemp')).toBe('-19');
    expect(search.get('dateInitUtc')).toBe('2024-03-01T10:00:00.000Z');
    expect(filterFromSearch(search, NOW)).toEqual(filter);
    // Shown back as typed: UTC clock with Sim.
    expect(filterToForm(filter)).toMatchObject({ dateInit: '2024-03-01T10:00', dateEnd: '2024-03-01T12:30', isUtc: true });
  });

  it('falls back to the defaults for a URL without a filter or with unreadable values', () => {
    expect(filterFromSearch(new URLSearchParams(''), NOW)).toEqual(defaultFilter(NOW));
    const broken = filterFromSearch(new URLSearchParams('minTemp=abc&dateInitUtc=ontem&dateEndUtc=2024-03-05T00:00:00Z'), NOW);
    expect(broken.minTemp).toBeNull();
    expect(broken.to).toBe('2024-03-05T00:00:00.000Z');
    expect(broken.from).toBe('2024-03-03T00:00:00.000Z');
  });
});
