import fc from 'fast-check';

/**
 * Values a hostile or careless client sends, and a generator that mixes them into requests shaped by a route's own
 * zod schemas (through their JSON Schema): near-valid values so that requests get past the first check, hostile
 * ones at every depth so that each later check is tried too (ADR 11).
 */

/** JSON text put in a body as is: what JSON.stringify cannot write (1e999 parses as Infinity, -0 stays -0). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** Text put in a URL as is, not percent-encoded again: broken escapes, encoded NUL and surrogates. */
export class RawUrl {
  constructor(readonly text: string) {}
}

const deep = (depth: number): unknown => {
  let value: unknown = 'fundo';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
};

export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  'admin\u0000',
  '\u0001\u0007\u001b[31m\u007f\u0085\u009f',
  'linha\nquebrada\r\n',
  '\uD800',
  'a\uDC00b',
  '\uDBFF\uDBFF',
  'arquivo\u202Egpj.exe',
  '\u2066isolado\u2069',
  '\uFEFFbom',
  'e\u0301',
  '😀'.repeat(500),
  'x'.repeat(10_000),
  'ç'.repeat(100_001),
  'null',
  'undefined',
  'true',
  '[object Object]',
  '__proto__',
  'constructor',
  "'; DROP TABLE users; --",
  '%00',
  '../../../etc/passwd',
  '${7*7}{{7*7}}',
  '<script>alert(1)</script>',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e999',
  '1e-50',
  '-0',
  '0x10',
  '1_000',
  ' 1 ',
  '1,5',
  '99999999999999999999999',
  '+275760-09-13T00:00:00Z',
  '-271821-04-20T00:00:00Z',
  '0000-01-01T00:00:00Z',
  '0001-01-01',
  '1969-12-31T23:59:59.999Z',
  '2200-01-01T00:00:00Z',
  '9999-12-31T23:59:59Z',
  '294277-01-01T00:00:00Z',
  '2026-02-30T00:00:00Z',
  '2026-11-22T25:61:00Z',
  '2026-11-22T09:00:00+99:99',
  '2026-11-22T09:00:00.1234567891Z',
  'ontem',
];

export const HOSTILE_NUMBERS = [
  0, -0, 1, -1, 0.5, 1e-50, -1e-50, 5e-324, 1.1754943508222875e-38, 3.5e38, -3.5e38, 1e308, -1e308,
  2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER, 1e21, 1e-300, 90.0000001, -180.0000001,
];

const HOSTILE_SHAPES: unknown[] = [
  null,
  true,
  false,
  [],
  {},
  [null],
  { '': '' },
  JSON.parse('{"__proto__": {"polluted": 1}, "constructor": {"prototype": {"polluted": 1}}}'),
  new RawJson('1e999'),
  new RawJson('-1e999'),
  new RawJson('-0'),
  new RawJson('1e-400'),
  new RawJson('123456789012345678901234567890'),
  deep(2000),
  Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])),
  Array.from({ length: 5000 }, (_, i) => i),
];

/** Ids and codes a request may point at: the caller's own rows, other enterprises' rows, and none at all. */
export interface Pools {
  uuids: readonly string[];
  macs: readonly string[];
  codes: readonly string[];
  /** Instants the product accepts (recent ones, for readings). */
  instants: readonly string[];
}

type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema | false;
  prefixItems?: Schema[];
  minItems?: number;
  maxItems?: number;
  anyOf?: Schema[];
  oneOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  default?: unknown;
};

export function hostileValue(pools: Pools): fc.Arbitrary<unknown> {
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_NUMBERS) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_SHAPES) },
    { weight: 2, arbitrary: fc.constantFrom(...pools.uuids, ...pools.macs, ...pools.codes) },
    { weight: 1, arbitrary: BINARY_40() },
    { weight: 1, arbitrary: fc.double() },
  );
}

/**
 * How a request is made: 'valid' keeps to what the schema says (so the request reaches the service, its rules, its
 * tenant checks and its SQL, with ids of every tenant), 'hostile' puts a hostile value at any node, one time in four.
 */
export type Mode = 'valid' | 'hostile';

/**
 * Arbitraries built once per process. Building `fc.stringMatching` parses its pattern into a tree of arbitraries
 * (about 35 ms each) and a binary `fc.string` about 10 ms, while drawing a value from either takes microseconds:
 * built per route and caller, they were a fifth of hostile-input.test.ts's time (ADR 85). Arbitraries hold no state,
 * so a shared one draws exactly the values a fresh one would for the same seed.
 */
const once = <T>(make: () => T): (() => T) => {
  let made: T | undefined;
  return () => (made ??= make());
};
const USERNAME = once(() => fc.stringMatching(/^[a-z][a-z0-9._-]{2,20}$/));
const EMAIL = once(() => fc.stringMatching(/^[a-z]{3,12}@[a-z]{3,8}\.com\.br$/));
const PASSWORD = once(() => fc.stringMatching(/^Aa1@[A-Za-z0-9]{4,20}$/));
const NAME_TEXT = once(() => fc.stringMatching(/^[A-Za-zÀ-ú][A-Za-zÀ-ú0-9 ,.-]{2,60}[a-z]$/));
const WORD = once(() => fc.stringMatching(/^[a-z][a-z0-9._-]{2,30}$/));
const BINARY_24 = once(() => fc.string({ unit: 'binary', maxLength: 24 }));
const BINARY_40 = once(() => fc.string({ unit: 'binary', maxLength: 40 }));

/** A value for a JSON Schema node. */
export function valueFor(node: Schema, pools: Pools, mode: Mode = 'hostile', depth = 0, name = ''): fc.Arbitrary<unknown> {
  if (mode === 'valid') return plausible(node, pools, mode, depth, name);
  return fc.oneof({ weight: 3, arbitrary: plausible(node, pools, mode, depth, name) }, { weight: 1, arbitrary: hostileValue(pools) });
}

function plausible(node: Schema, pools: Pools, mode: Mode, depth: number, name: string): fc.Arbitrary<unknown> {
  if (depth > 6) return mode === 'valid' ? fc.constant(null) : hostileValue(pools);
  const alternatives = node.anyOf ?? node.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((n) => valueFor(n, pools, mode, depth + 1, name)));
  if (node.enum) return fc.constantFrom(...node.enum);
  if ('const' in node) return fc.constant(node.const);
  const types = Array.isArray(node.type) ? node.type : node.type ? [node.type] : [];
  if (types.length === 0) return mode === 'valid' ? fc.constantFrom<unknown>('1', 1, 'true', null, ...pools.instants) : hostileValue(pools);
  return fc.oneof(...types.map((type) => ofType(type, node, pools, mode, depth, name)));
}

/**
 * What a field of a given name holds in a valid request, where its JSON Schema cannot say it (a refinement's
 * bounds, a transform's input): positions, measures, usernames, passwords, instants. Unnamed: null.
 */
function byName(type: string, name: string, pools: Pools): fc.Arbitrary<unknown> | null {
  const path = name.toLowerCase();
  const key = path.split('.').pop()!;
  const measure = /\blat$/.test(path) ? [-90, 90] : /\blng$/.test(path) ? [-180, 180] : /hum/.test(path) ? [0, 100] : /temp|\.min$|\.max$/.test(path) ? [-80, 150] : null;
  if (measure && (type === 'number' || type === 'integer')) return fc.oneof(fc.integer({ min: measure[0]!, max: measure[1]! }), fc.double({ min: measure[0]!, max: measure[1]!, noNaN: true }).map((n) => Math.round(n * 100) / 100));
  if (type !== 'string') return null;
  if (measure) return fc.integer({ min: measure[0]! * 10, max: measure[1]! * 10 }).map((n) => String(n / 10).replace('.', ','));
  if (/date|^ts$/.test(key)) return fc.constantFrom(...pools.instants);
  if (key === 'username') return USERNAME();
  if (key === 'email') return EMAIL();
  if (key === 'password') return PASSWORD();
  if (key === 'cod') return fc.constantFrom(...pools.codes);
  if (/name|address|message/.test(key)) return fc.oneof(fc.constantFrom(...PLAUSIBLE_TEXTS), NAME_TEXT());
  return null;
}

function ofType(type: string, node: Schema, pools: Pools, mode: Mode, depth: number, name: string): fc.Arbitrary<unknown> {
  const valid = mode === 'valid';
  const named = valid ? byName(type, name, pools) : null;
  if (named) return named;
  switch (type) {
    case 'object': {
      const props = Object.entries(node.properties ?? {});
      const fields = Object.fromEntries(props.map(([k, n]) => [k, valueFor(n, pools, mode, depth + 1, `${name}.${k}`)]));
      // Fields present as the schema asks, or (hostile) any of them missing.
      const asked = fc.record(fields, { requiredKeys: node.required ?? [] });
      return valid ? asked : fc.oneof({ weight: 3, arbitrary: asked }, { weight: 1, arbitrary: fc.record(fields, { requiredKeys: [] }) });
    }
    case 'array': {
      // A pair of numbers is a position: [latitude, longitude].
      const position = node.prefixItems?.length === 2 ? [`${name}.lat`, `${name}.lng`] : [];
      if (node.prefixItems) return fc.tuple(...node.prefixItems.map((n, i) => valueFor(n, pools, mode, depth + 1, position[i] ?? name)));
      const item = node.items ? node.items : {};
      const min = node.minItems ?? 0;
      const max = Math.max(min, Math.min(node.maxItems ?? 4, 4));
      const within = fc.array(valueFor(item, pools, mode, depth + 1, name), { minLength: min, maxLength: max });
      if (valid) return within;
      // One past the longest list accepted.
      const beyond = (node.maxItems ?? 50) + 1;
      return fc.oneof({ weight: 4, arbitrary: within }, { weight: 1, arbitrary: fc.array(valueFor(item, pools, mode, depth + 1), { minLength: beyond, maxLength: beyond }) });
    }
    case 'string':
      return valid ? validString(node, pools) : stringFor(node, pools);
    case 'number':
    case 'integer': {
      const lo = node.minimum ?? -100;
      const hi = node.maximum ?? 100;
      if (valid) return type === 'integer' ? fc.integer({ min: lo, max: hi }) : fc.oneof(fc.integer({ min: Math.ceil(lo), max: Math.floor(hi) }), fc.double({ min: lo, max: hi, noNaN: true }));
      const bounds = [node.minimum, node.maximum].filter((n): n is number => n !== undefined);
      const edges = bounds.flatMap((b) => [b, b - 1, b + 1, b + 0.5]);
      return fc.oneof(
        { weight: 2, arbitrary: fc.constantFrom(...edges, ...HOSTILE_NUMBERS) },
        { weight: 1, arbitrary: type === 'integer' ? fc.integer() : fc.double({ noNaN: true, noDefaultInfinity: true }) },
        { weight: 1, arbitrary: fc.integer({ min: -200, max: 200 }) },
      );
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    default:
      return valid ? fc.constant(null) : hostileValue(pools);
  }
}

/** Texts a person would type: names, addresses, usernames, passwords, codes, instants. */
const PLAUSIBLE_TEXTS = ['Baú Caminhão 03', 'Câmara Fria — Filial 😀', 'Rua das Flores, 100 - São Paulo - SP', 'joao.silva2', 'nova.empresa', 'Sentinela@2026', 'Aa1@aaaa', 'Reconhecido: porta aberta.', 'AUR7K2M9QX'];

function validString(node: Schema, pools: Pools): fc.Arbitrary<string> {
  if (node.format === 'uuid') return fc.constantFrom(...pools.uuids);
  if (node.pattern?.includes('[0-9A-F]{2}')) return fc.constantFrom(...pools.macs.filter((mac) => /^[0-9A-F]{2}(:[0-9A-F]{2}){5}$/i.test(mac)));
  if (node.format === 'email') return EMAIL();
  if (node.format === 'date-time') return fc.constantFrom(...pools.instants);
  return fc.oneof(
    fc.constantFrom(...PLAUSIBLE_TEXTS, ...pools.codes, ...pools.instants),
    WORD(),
    fc.string({ unit: 'grapheme', minLength: 3, maxLength: Math.min(node.maxLength ?? 40, 40) }),
  );
}

function stringFor(node: Schema, pools: Pools): fc.Arbitrary<string> {
  if (node.format === 'uuid') return fc.constantFrom(...pools.uuids);
  if (node.pattern?.includes('[0-9A-F]{2}')) return fc.constantFrom(...pools.macs);
  if (node.format === 'email') return fc.constantFrom('a@b.co', `${'a'.repeat(64)}@${'b'.repeat(63)}.com`, 'ç@ç.ç', 'a@b', '@', 'a\u0000@b.co');
  const max = node.maxLength ?? 80;
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 24 }) },
    { weight: 1, arbitrary: BINARY_24() },
    { weight: 2, arbitrary: fc.constantFrom(...PLAUSIBLE_TEXTS, ...pools.codes, ...pools.instants) },
    { weight: 1, arbitrary: fc.constantFrom('x'.repeat(max), 'x'.repeat(max + 1), '😀'.repeat(Math.ceil(max / 2)), 'á'.repeat(max)) },
    { weight: 2, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) },
  );
}

/** A body as JSON text: RawJson pieces go in as they are. */
export function jsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0000raw${raws.length - 1}\u0000`;
    }
    if (v instanceof RawUrl) return v.text;
    return v;
  });
  if (text === undefined) return 'null';
  return text.replace(/"\\u0000raw(\d+)\\u0000"/g, (_, i: string) => raws[Number(i)]!);
}

/**
 * A value in a URL: text is percent-encoded byte by byte as UTF-8 (a lone surrogate becomes U+FFFD, as a browser
 * would send it), anything else as its JSON text; RawUrl goes in unencoded.
 */
export function urlText(value: unknown): string {
  if (value instanceof RawUrl) return value.text;
  if (value instanceof RawJson) return encodeBytes(value.text);
  if (typeof value === 'string') return encodeBytes(value);
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : encodeBytes(String(value));
  return encodeBytes(jsonText(value));
}

function encodeBytes(text: string): string {
  return [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9\-_.~]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).toUpperCase().padStart(2, '0')}`)).join('');
}

/** A query string from an object: arrays repeat their key. */
export function queryText(value: unknown): string {
  if (value instanceof RawUrl) return value.text;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return `q=${urlText(value)}`;
  const parts: string[] = [];
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    // A query string has no null: a field without a value is left out (the text "null" is among the hostile ones).
    for (const item of Array.isArray(v) ? v : [v]) if (item !== null) parts.push(`${encodeBytes(key)}=${urlText(item)}`);
  }
  return parts.join('&');
}

/** URL pieces no encoder makes: broken escapes, encoded NUL, an encoded surrogate, overlong UTF-8. */
export const RAW_URL_PIECES = ['%00', '%', '%FF%FE', '%ED%A0%80', '%C0%AF', 'a%2Fb', '%E2%80%AE', '..%2F..%2F', '%u0000'].map((t) => new RawUrl(t));
