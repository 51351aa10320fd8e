/** What a number input holds: a number, or the text typed so far ('' when empty). */
export type NumberField = number | string;

/** A number field: '' means empty (null); a decimal comma is accepted. NaN when it is not a number. */
export function parseNumberField(value: NumberField): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : Number.NaN;
  const text = value.trim().replace(',', '.');
  if (text === '') return null;
  const number = Number(text);
  return Number.isFinite(number) ? number : Number.NaN;
}
