/**
 * Money as people in Brazil type it (issue 26, ADR 75): the one parser of typed amounts, for the server's schemas and
 * the web's forms alike. Read from the text into whole centavos, never by multiplying a float (0.29 * 100 is
 * 28.999999999999996).
 *
 * Accepted: "1.234,56", "1234,56", "149,9", "R$ 1.234,56", "1.234" (pt-BR thousands: one thousand two hundred and
 * thirty-four reais), "149.90" and "149.9" (a decimal point followed by one or two digits, as a JSON number or a
 * careless hand writes it), "0". Refused (null): anything else — a negative amount, three decimals, misplaced
 * thousands dots ("12.34.56"), letters, an empty text.
 */
const GROUPED = /^\d{1,3}(?:\.\d{3})+$/;
const PLAIN = /^\d+$/;

export function parseBrlCents(input: string): number | null {
  const text = input.replace(/^\s*R\$\s*/i, '').replace(/\s+/g, '');
  if (text === '' || text.length > 24) return null;
  let whole: string;
  let fraction = '';
  const comma = text.split(',');
  if (comma.length > 2) return null;
  if (comma.length === 2) {
    [whole, fraction] = comma as [string, string];
    if (!/^\d{1,2}$/.test(fraction)) return null;
    if (GROUPED.test(whole)) whole = whole.replace(/\./g, '');
    else if (!PLAIN.test(whole)) return null;
  } else if (GROUPED.test(text)) {
    whole = text.replace(/\./g, '');
  } else {
    const point = /^(\d+)(?:\.(\d{1,2}))?$/.exec(text);
    if (!point) return null;
    whole = point[1]!;
    fraction = point[2] ?? '';
  }
  const cents = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/**
 * A JSON number of reais (149.9) → centavos, or null: at most two decimals, never negative. Not through the text
 * parser, where "1.234" would be pt-BR thousands; the number 1.234 has three decimals and is refused.
 */
export function numberToCents(value: number): number | null {
  if (!Number.isFinite(value) || value < 0) return null;
  const point = /^(\d+)(?:\.(\d{1,2}))?$/.exec(String(value));
  if (!point) return null;
  const cents = Number(point[1]) * 100 + Number((point[2] ?? '').padEnd(2, '0'));
  return Number.isSafeInteger(cents) ? cents : null;
}

/** Centavos as a money field shows them for editing: 152900 → "1.529,00". */
export function formatBrlInput(cents: number): string {
  const reais = Math.trunc(cents / 100).toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${reais},${String(Math.abs(cents % 100)).padStart(2, '0')}`;
}
