import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import {
  INSTANT_MAX_MS,
  INSTANT_MIN_MS,
  MEASURE_BOUNDS,
  REAL_MAX,
  REAL_MIN_NORMAL,
  boundedInstant,
  boundedInt,
  checkMeasure,
  cleanText,
  fitsColumn,
  measureInput,
  parseBoundedInstant,
  type NumericColumn,
} from '@sentinela/contract';
import type { DatabaseHandle } from '../src/db/database';
import { openTestDatabase } from './context';

/**
 * The contract's value building blocks promise that what they accept fits the column it lands in. These tests
 * hold them to it against the real database (PostgreSQL or PGlite): every accepted boundary value is stored, and
 * the values just beyond are ones the database itself refuses.
 */
let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await openTestDatabase();
});
afterAll(() => handle.close());

async function stores(column: NumericColumn, value: number): Promise<boolean> {
  try {
    await sql`SELECT ${value}::float8::${sql.raw(column)} AS v`.execute(handle.db);
    return true;
  } catch {
    return false;
  }
}

/** True when the database stores the text and gives back exactly what it was sent. */
async function storesText(value: string): Promise<boolean> {
  try {
    const { rows } = await sql<{ v: string }>`SELECT ${value}::text AS v`.execute(handle.db);
    return rows[0]!.v === value;
  } catch {
    return false;
  }
}

describe('numbers fit their column', () => {
  const cases: [NumericColumn, number[], number[]][] = [
    ['real', [0, -0, 1, -1, REAL_MAX, -REAL_MAX, REAL_MIN_NORMAL, -REAL_MIN_NORMAL, 36.6], [1e-50, -1e-50, 1e39, -1e39]],
    ['integer', [0, 2_147_483_647, -2_147_483_647], [2_147_483_648, 1e12]],
    ['smallint', [0, 32_767, -32_767], [32_768, -40_000]],
  ];
  for (const [column, fit, beyond] of cases) {
    it(`${column}: accepted values are stored, the ones beyond are refused by the database too`, async () => {
      for (const v of fit) {
        expect(fitsColumn(v, column), `${v} fits ${column}`).toBe(true);
        expect(await stores(column, v), `${column} stores ${v}`).toBe(true);
      }
      for (const v of beyond) {
        expect(fitsColumn(v, column), `${v} does not fit ${column}`).toBe(false);
        expect(await stores(column, v), `${column} refuses ${v}`).toBe(false);
      }
    });
  }

  it('non-finite numbers fit no column', () => {
    for (const column of ['real', 'double precision', 'integer', 'smallint'] as const) {
      for (const v of [NaN, Infinity, -Infinity]) expect(fitsColumn(v, column)).toBe(false);
    }
  });

  it('measures: physical bounds and the column, with pt-BR reasons', () => {
    expect(checkMeasure('temperature', 21.5)).toBe('ok');
    expect(checkMeasure('temperature', 1e-50)).toBe('invalid');
    expect(checkMeasure('temperature', 151)).toBe('out_of_range');
    expect(checkMeasure('humidity', '50')).toBe('invalid');
    expect(checkMeasure('lat', -90)).toBe('ok');
    expect(checkMeasure('lat', -0)).toBe('ok');
    expect(checkMeasure('lng', 1e-9)).toBe('ok');
    expect(checkMeasure('lng', -1e-300)).toBe('invalid');
    const limit = measureInput('temperature', 'Limite de temperatura');
    expect(limit.parse(' 8,5 ')).toBe(8.5);
    expect(limit.parse('')).toBeNull();
    for (const bad of ['Infinity', '-Infinity', 'NaN', '1e999', '0x10', '1e-50', 1e-50, 'abc']) {
      const r = limit.safeParse(bad);
      expect(r.success, String(bad)).toBe(false);
      expect(r.error!.issues[0]!.message).toMatch(/^Limite de temperatura inválida/);
    }
    expect(limit.safeParse(400).error!.issues[0]!.message).toBe('Limite de temperatura fora da faixa permitida (-80 a 150 °C).');
  });

  it('coordinates: the smallest accepted magnitude survives the distance arithmetic, the ones below do not', async () => {
    const haversineTerm = (v: number) => sql<{ v: number }>`SELECT power(sin(radians(${v}::float8 - 0) / 2), 2) AS v`.execute(handle.db);
    await expect(haversineTerm(MEASURE_BOUNDS.lat.minMagnitude)).resolves.toBeDefined();
    await expect(haversineTerm(1e-300)).rejects.toThrow(/underflow/);
    expect(checkMeasure('lat', 1e-300)).toBe('invalid');
  });

  it('integers are bounded and their bounds must fit int4', () => {
    const page = boundedInt('Página', 1, 100_000, { coerce: true });
    expect(page.parse('3')).toBe(3);
    for (const bad of ['1e20', '0', '1.5', 'x', '100001']) expect(page.safeParse(bad).success, bad).toBe(false);
    expect(() => boundedInt('x', 0, 2 ** 40)).toThrow();
  });
});

describe('text is what a text column holds and a screen shows', () => {
  const name = cleanText('Nome', { min: 1, max: 10 });
  const notes = cleanText('Notas', { max: 100, multiline: true });

  it('refuses what PostgreSQL refuses (NUL) or silently alters (unpaired surrogates)', async () => {
    for (const bad of ['a\u0000b', 'a\uD800b', 'a\uDC00']) {
      expect(name.safeParse(bad).success).toBe(false);
      expect(await storesText(bad)).toBe(false);
    }
  });

  it('refuses control characters and direction overrides, keeps line breaks only where text is multi-line', () => {
    for (const bad of ['a\u0007b', 'a\u001Bb', 'a\u0085b', 'abc\u202Egpj.exe', 'a\nb']) {
      const r = name.safeParse(bad);
      expect(r.success, JSON.stringify(bad)).toBe(false);
      expect(r.error!.issues[0]!.message).toBe('Nome contém caracteres inválidos.');
    }
    expect(notes.parse('linha 1\r\nlinha 2\tfim')).toBe('linha 1\r\nlinha 2\tfim');
    expect(notes.safeParse('a\u0000').success).toBe(false);
  });

  it('trims, normalises, bounds, and keeps real characters', async () => {
    expect(name.parse('  Cafe\u0301  ')).toBe('Café');
    expect(name.parse('😀 Ação')).toBe('😀 Ação');
    expect(await storesText('😀 Ação')).toBe(true);
    expect(name.safeParse('   ').error!.issues[0]!.message).toBe('Informe nome.');
    expect(name.safeParse('x'.repeat(11)).error!.issues[0]!.message).toBe('Nome deve ter no máximo 10 caracteres.');
  });
});

describe('instants', () => {
  it('accepts 1970–2199 and refuses what lies beyond or does not exist', async () => {
    const at = boundedInstant('Data inicial', { requireOffset: true });
    expect(at.parse(' 2026-11-22T09:00:00Z ')).toBe('2026-11-22T09:00:00Z');
    for (const bad of ['2026-02-30T00:00:00Z', '+275760-09-13T00:00:00Z', '1969-12-31T23:59:59Z', '2200-01-01T00:00:00Z', '2026-11-22T09:00:00', 'ontem']) {
      expect(at.safeParse(bad).success, bad).toBe(false);
    }
    expect(parseBoundedInstant('2026-11-22')).toBe(Date.UTC(2026, 10, 22));
    // The bounds themselves are instants PostgreSQL stores.
    for (const ms of [INSTANT_MIN_MS, INSTANT_MAX_MS - 1]) {
      const { rows } = await sql<{ v: Date }>`SELECT ${new Date(ms).toISOString()}::timestamptz AS v`.execute(handle.db);
      expect(new Date(rows[0]!.v).getTime()).toBe(ms);
    }
  });
});
