/**
 * What an upgrade is and what it charges (ADR 32). Integer centavos only: no floating-point money.
 */
const DAY = 86_400_000;

export interface PricedCycle {
  /** Months the cycle covers (1 for Mensal, 12 for Anual: the documents' rule). */
  months: number;
  cents: number;
}

/**
 * An upgrade is a change to a higher price per day of the period. A change of cycle always waits for the next period
 * (the brief; a Mensal period cannot be re-cut into an Anual one), so only changes within the same cycle length are
 * compared, and there both prices cover the same days: a higher price is a higher price per day.
 */
export function isUpgrade(current: PricedCycle, wanted: PricedCycle): boolean {
  return current.months === wanted.months && wanted.cents > current.cents;
}

export interface InvoicedPeriod {
  start: Date;
  end: Date;
}

/** Whole days from `from` to `to`, a started day counting as a day (the new plan is used on the day of the change). */
const daysUp = (from: number, to: number) => Math.ceil((to - from) / DAY);

/**
 * The price difference for the days left of every invoiced period not yet over: for each, diff × days left ÷ days of
 * the period, rounded to the nearest centavo (half up) in integer arithmetic. A period that has not started yet (its
 * invoice issued days before) is charged whole. Never negative.
 */
export function proratedCents(diffCents: number, periods: readonly InvoicedPeriod[], now: Date): number {
  if (diffCents <= 0) return 0;
  let total = 0;
  for (const period of periods) {
    const start = period.start.getTime();
    const end = period.end.getTime();
    if (end <= now.getTime()) continue;
    const days = Math.max(1, Math.round((end - start) / DAY));
    const left = Math.min(days, daysUp(Math.max(start, now.getTime()), end));
    // floor((2·diff·left + days) / (2·days)) is diff·left/days rounded half up; the products stay far below 2^53.
    total += Math.floor((2 * diffCents * left + days) / (2 * days));
  }
  return total;
}
