import { describe, expect, it } from 'vitest';
import { periodFormToFilters } from './period-filter';

describe('report list filters (spec 001 §5)', () => {
  it('an empty start or end is null', () => {
    expect(periodFormToFilters({ dateInit: '', dateEnd: ' ' })).toEqual({ ok: true, filters: { dateInit: null, dateEnd: null } });
  });

  it('sends local date/times as instants; an end typed to the minute covers the minute', () => {
    expect(periodFormToFilters({ dateInit: '2024-03-01T09:00', dateEnd: '2024-03-03T09:30' })).toEqual({
      ok: true,
      filters: { dateInit: '2024-03-01T12:00:00.000Z', dateEnd: '2024-03-03T12:30:59.999Z' },
    });
  });

  it('refuses dates outside the years the server accepts (1970–2199)', () => {
    expect(periodFormToFilters({ dateInit: '1900-01-01T00:00', dateEnd: '' })).toEqual({ ok: false, error: 'Data inválida.' });
    expect(periodFormToFilters({ dateInit: '', dateEnd: '2200-01-01T00:00' })).toEqual({ ok: false, error: 'Data inválida.' });
  });

  it('refuses a reversed period', () => {
    expect(periodFormToFilters({ dateInit: '2024-03-03T09:00', dateEnd: '2024-03-01T09:00' })).toEqual({
      ok: false,
      error: 'A data inicial deve ser anterior à data final.',
    });
  });
});
