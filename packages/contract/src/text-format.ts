/**
 * pt-BR numbers, ranges and counts inside sentences (P7), for every text the server or the web app builds: device
 * events, alarm messages and their notifications, reports, screens. One place, so "30 a 90.5 %" (a decimal point and
 * mixed decimals), "há mais de 1 minutos" and "-15,29 °C - -14,00 °C" (a minus read as the separator) cannot come
 * back from one builder that wrote its own.
 */

/** A decimal with a decimal comma and no grouping, at fixed digits: 5.355 → "5,36", 90.5 → "90,50", -0.001 → "0,00". */
export function formatDecimal(value: number, digits = 2): string {
  const text = value.toFixed(digits);
  const isNegativeZero = text.charCodeAt(0) === 45 /* - */ && Number(text) === 0;
  return (isNegativeZero ? text.slice(1) : text).replace('.', ',');
}

/** A measured quantity: "23,50 °C", "61,20 %". */
export function formatQuantity(value: number, unit: string, digits = 2): string {
  return `${formatDecimal(value, digits)} ${unit}`;
}

export interface RangeOptions {
  /** Said when neither end is set ("--" by default; "Sem limites" for limits). */
  none?: string;
  digits?: number;
}

/**
 * A range of a quantity, its ends joined by "a" so that a negative end is never read as a separator:
 * "-15,29 a -14,00 °C", "2,00 a 8,00 °C". One end only: "mínimo 2,00 °C" / "máximo 8,00 °C"; both equal: the value
 * once; neither: `none`.
 */
export function formatRange(min: number | null | undefined, max: number | null | undefined, unit: string, options: RangeOptions = {}): string {
  const digits = options.digits ?? 2;
  const low = min ?? null;
  const high = max ?? null;
  if (low === null && high === null) return options.none ?? '--';
  if (low !== null && high !== null) {
    return low === high ? formatQuantity(low, unit, digits) : `${formatDecimal(low, digits)} a ${formatDecimal(high, digits)} ${unit}`;
  }
  return low !== null ? `mínimo ${formatQuantity(low, unit, digits)}` : `máximo ${formatQuantity(high!, unit, digits)}`;
}

const integer = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 0 });

/**
 * A count with its noun in the right number: "1 minuto", "0 minutos", "30 minutos", "1.500 leituras" (pt-BR: only
 * one is singular).
 */
export function pluralize(count: number, singular: string, plural: string): string {
  return `${integer.format(count)} ${Math.abs(count) === 1 ? singular : plural}`;
}
