/** How reports word a device's coverage (ADR 0035), the same in the PDF and the spreadsheet. */
import { COVERAGE_SINCE_LABELS, INTERVAL_SOURCE_LABELS, formatGapDuration, pluralize, type Coverage } from '@sentinela/contract';

const number = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/**
 * "97,5 % (390 de 400 leituras esperadas)", or why there is no percentage; when counting starts after the period's
 * start (the device was registered or linked later), from when and why: "…; contada a partir de 28/11/2026 09:15,
 * desde o cadastro do dispositivo".
 */
export function coverageText(coverage: Coverage, dateTime: (instant: Date) => string): string {
  const since = coverage.since ? `; contada a partir de ${dateTime(new Date(coverage.since.at))}, ${COVERAGE_SINCE_LABELS[coverage.since.reason]}` : '';
  if (coverage.percent === null) return `${pluralize(coverage.received, 'leitura', 'leituras')} (período curto demais para esperar uma leitura)${since}`;
  return `${number.format(coverage.percent)} % (${number.format(coverage.received)} de ${pluralize(coverage.expected, 'leitura esperada', 'leituras esperadas')})${since}`;
}

/** "300 s (aprendido das leituras); lacuna acima de 15 min". */
export function intervalText(coverage: Coverage): string {
  return `${formatGapDuration(coverage.expectedIntervalSeconds * 1000)} (${INTERVAL_SOURCE_LABELS[coverage.intervalSource]}); lacuna acima de ${formatGapDuration(coverage.thresholdMs)}`;
}

export function gapsText(coverage: Coverage): string {
  return coverage.gapCount === 0 ? 'Nenhuma' : `${coverage.gapCount} (${formatGapDuration(coverage.gapTotalMs)} sem dados)`;
}

/** "20 (entre sensor e gateway, pelo contador de sequência)", or that the readings carry no counter. */
export function lostText(coverage: Coverage, noCounters: string): string {
  return coverage.lost === null ? noCounters : `${coverage.lost} (entre sensor e gateway, pelo contador de sequência)`;
}
