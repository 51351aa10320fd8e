/**
 * What a report says about one device over a period, shared by the device report and each device of a travel
 * report: identification fields, statistics, chart, excursions, alarms and the readings table.
 */
import {
  formatCount,
  formatDecimal,
  formatDuration,
  formatLimits,
  formatObserved,
  formatOptionalDecimal,
  formatPercent,
  isBounded,
  type ZonedClock,
} from '../format';
import { formatGapDuration, type Coverage } from '@sentinela/contract';
import { coverageText, gapsText, intervalText, lostText } from '../coverage-text';
import { medianIntervalMs, GAP_FACTOR, rangeStatus, type ReportStatistics } from '../statistics';
import { alarmTypeName, calibrationLine, EXCURSION_KIND_NAMES, QUANTITY_NAMES, QUANTITY_UNITS, REPORT_TEXTS as T } from '../texts';
import type { DeviceReportInput, ReportAlarm, ReportReading } from '../types';
import { drawReadingsChart } from './chart';
import { drawFields, drawNote, drawSectionTitle, type Doc, type Field } from './layout';
import { type Cell, type Column, drawTable, flagged } from './tables';

/** The part of a device report that a travel report repeats per device. */
export type DeviceSection = Pick<DeviceReportInput, 'device' | 'calibration' | 'period' | 'valueFilters' | 'limits' | 'readings' | 'alarms' | 'coverage'>;

/** Alarm texts are typed by people; a runaway one must not make a row taller than a page. */
const MAX_CELL_TEXT = 400;

export function periodText(period: { from: Date; to: Date }, clock: ZonedClock): string {
  return `${clock.dateTime(period.from)} a ${clock.dateTime(period.to)} (${clock.timeZone})`;
}

/** Device, MAC, serial, period, limits, and the value filters when the user set any. */
export function deviceFields(section: DeviceSection, clock: ZonedClock): Field[] {
  const fields: Field[] = [
    { label: T.device, value: section.device.name },
    { label: T.mac, value: section.device.mac },
  ];
  if (section.device.serial) fields.push({ label: T.serial, value: section.device.serial });
  // The sensor's calibration as of the period (X12): an auditor's first question about any reading.
  fields.push({ label: T.calibration, value: calibrationLine(section.calibration), wide: true });
  fields.push(
    { label: T.period, value: periodText(section.period, clock), wide: true },
    { label: T.temperatureLimits, value: formatLimits(section.limits.temperature, '°C') },
    { label: T.humidityLimits, value: formatLimits(section.limits.humidity, '%') },
  );
  const filters = section.valueFilters;
  if (isBounded(filters.temperature) || isBounded(filters.humidity)) {
    const parts: string[] = [];
    if (isBounded(filters.temperature)) parts.push(`temperatura ${formatLimits(filters.temperature, '°C')}`);
    if (isBounded(filters.humidity)) parts.push(`umidade ${formatLimits(filters.humidity, '%')}`);
    // Printed so that a filtered report is never taken for the full record.
    fields.push({ label: T.filters, value: `Somente leituras com ${parts.join(' e ')}`, wide: true });
  }
  return fields;
}

/** Statistics, chart, excursions, alarms and readings of one device. */
export function drawDeviceBody(doc: Doc, section: DeviceSection, stats: ReportStatistics, clock: ZonedClock): void {
  drawStatistics(doc, section, stats, clock);
  drawCoverage(doc, section.coverage, clock);
  if (stats.count > 0) {
    drawSectionTitle(doc, T.chart, 200);
    // The chart breaks its line where the coverage found a gap (ADR 0035), the same threshold as the gaps table.
    drawReadingsChart(doc, section.readings, section.limits, { clock, gapMs: section.coverage.thresholdMs ?? gapMs(section.readings) });
  }
  drawExcursions(doc, stats, clock);
  drawGaps(doc, section.coverage, clock);
  drawAlarms(doc, section.alarms, clock);
  drawReadings(doc, section, clock);
}

function gapMs(readings: readonly ReportReading[]): number | null {
  const median = medianIntervalMs(readings);
  return median === null ? null : GAP_FACTOR * median;
}

function drawStatistics(doc: Doc, section: DeviceSection, stats: ReportStatistics, clock: ZonedClock): void {
  drawSectionTitle(doc, T.statistics, 90);
  if (stats.count === 0) {
    drawFields(doc, [{ label: T.readings, value: '0' }]);
    drawNote(doc, T.noReadings);
    return;
  }
  const coveredMs = stats.last!.getTime() - stats.first!.getTime();
  drawFields(doc, [
    { label: T.readings, value: formatCount(stats.count) },
    { label: T.excursions, value: formatCount(stats.excursions.length) },
    { label: T.firstReading, value: clock.dateTime(stats.first!) },
    { label: T.lastReading, value: clock.dateTime(stats.last!) },
    { label: T.timeOutOfRange, value: `${formatDuration(stats.timeOutOfRangeMs)} (${formatPercent(stats.timeOutOfRangeMs, coveredMs)} do tempo entre a primeira e a última leitura)`, wide: true },
  ]);
  doc.y += 4;
  const columns: Column[] = [
    { header: T.quantity, weight: 17 },
    { header: T.minimum, weight: 10, align: 'right' },
    { header: T.maximum, weight: 10, align: 'right' },
    { header: T.mean, weight: 10, align: 'right' },
    { header: T.mkt, weight: 19, align: 'right' },
    { header: T.limits, weight: 19, align: 'right' },
    { header: T.excursions, weight: 11, align: 'right' },
  ];
  const excursionsOf = (quantity: 'temperature' | 'humidity') => formatCount(stats.excursions.filter((e) => e.quantity === quantity).length);
  drawTable(doc, columns, [
    [
      `${QUANTITY_NAMES.temperature} (°C)`,
      formatOptionalDecimal(stats.temperature.min),
      formatOptionalDecimal(stats.temperature.max),
      formatOptionalDecimal(stats.temperature.mean),
      formatOptionalDecimal(stats.temperature.mkt),
      formatLimits(section.limits.temperature, '°C'),
      excursionsOf('temperature'),
    ],
    [
      `${QUANTITY_NAMES.humidity} (%)`,
      formatOptionalDecimal(stats.humidity.min),
      formatOptionalDecimal(stats.humidity.max),
      formatOptionalDecimal(stats.humidity.mean),
      '—',
      formatLimits(section.limits.humidity, '%'),
      excursionsOf('humidity'),
    ],
  ], { fontSize: 8.5 });
}

/** Coverage beside the statistics (ADR 0035): how much of the period the readings cover. */
function drawCoverage(doc: Doc, coverage: Coverage, clock: ZonedClock): void {
  drawSectionTitle(doc, T.coverage, 90);
  drawFields(doc, [
    { label: T.coverageValue, value: coverageText(coverage, (at) => clock.dateTime(at)), wide: true },
    { label: T.gaps, value: gapsText(coverage), wide: true },
    { label: T.expectedInterval, value: intervalText(coverage), wide: true },
    { label: T.lostReadings, value: lostText(coverage, T.noCounters), wide: true },
  ]);
}

/** Where the readings do not cover the period: each gap longer than the threshold, after the excursions. */
function drawGaps(doc: Doc, coverage: Coverage, clock: ZonedClock): void {
  drawSectionTitle(doc, T.gaps);
  if (coverage.gapCount === 0) {
    drawNote(doc, T.noGaps);
    return;
  }
  if (coverage.gaps.length < coverage.gapCount) drawNote(doc, T.moreGaps(coverage.gaps.length, coverage.gapCount));
  const columns: Column[] = [
    { header: 'Nº', weight: 6, align: 'right' },
    { header: T.start, weight: 32 },
    { header: T.end, weight: 32 },
    { header: T.duration, weight: 30, align: 'right' },
  ];
  drawTable(
    doc,
    columns,
    coverage.gaps.map((gap, index) => [String(index + 1), clock.dateTime(new Date(gap.start)), clock.dateTime(new Date(gap.end)), formatGapDuration(gap.durationMs)]),
    { zebra: true },
  );
}

function drawExcursions(doc: Doc, stats: ReportStatistics, clock: ZonedClock): void {
  drawSectionTitle(doc, T.excursions);
  if (stats.excursions.length === 0) {
    drawNote(doc, T.noExcursions);
    return;
  }
  const columns: Column[] = [
    { header: 'Nº', weight: 5, align: 'right' },
    { header: T.quantity, weight: 13 },
    { header: T.type, weight: 16 },
    { header: T.start, weight: 19 },
    { header: T.end, weight: 19 },
    { header: T.duration, weight: 15, align: 'right' },
    { header: T.extreme, weight: 13, align: 'right' },
  ];
  drawTable(
    doc,
    columns,
    stats.excursions.map((excursion, index) => [
      String(index + 1),
      QUANTITY_NAMES[excursion.quantity],
      EXCURSION_KIND_NAMES[excursion.kind],
      clock.dateTime(excursion.start),
      clock.dateTime(excursion.end),
      formatDuration(excursion.durationMs),
      `${formatDecimal(excursion.extreme)} ${QUANTITY_UNITS[excursion.quantity]}`,
    ]),
    { zebra: true },
  );
}

function drawAlarms(doc: Doc, alarms: readonly ReportAlarm[], clock: ZonedClock): void {
  drawSectionTitle(doc, T.alarms);
  if (alarms.length === 0) {
    drawNote(doc, T.noAlarms);
    return;
  }
  const columns: Column[] = [
    { header: T.dateTime, weight: 17 },
    { header: T.type, weight: 13, wrap: true },
    { header: T.message, weight: 24, wrap: true },
    { header: T.observed, weight: 15, wrap: true },
    { header: T.status, weight: 10 },
    { header: T.acknowledgement, weight: 26, wrap: true },
  ];
  const clip = (text: string) => (text.length > MAX_CELL_TEXT ? `${text.slice(0, MAX_CELL_TEXT)}…` : text);
  drawTable(
    doc,
    columns,
    alarms.map((alarm) => {
      const observed = [formatObserved(alarm.temperature, '°C'), formatObserved(alarm.humidity, '%')].filter((v) => v !== null).join('; ');
      return [
        clock.dateTime(alarm.occurredAt),
        alarmTypeName(alarm.type),
        clip(alarm.message),
        observed || '—',
        alarm.active ? T.active : T.closed,
        clip(acknowledgement(alarm, clock)),
      ];
    }),
    { zebra: true },
  );
}

/**
 * "Por Ana Souza em 01/03/2026 10:15:00: Porta aberta na doca" or "Não reconhecido"; a signed acknowledgement (GxP
 * mode, ADR 0062) ends with "Assinado eletronicamente por Ana Souza (ana.souza) em 01/03/2026 10:15:00 — Revisado".
 */
export function acknowledgement(alarm: ReportAlarm, clock: ZonedClock): string {
  if (!alarm.acknowledgedAt) return T.notAcknowledged;
  const who = alarm.acknowledgedBy ? `Por ${alarm.acknowledgedBy} em` : 'Em';
  const message = alarm.acknowledgementMessage ? `: ${alarm.acknowledgementMessage}` : '';
  const s = alarm.signature;
  const signed = s ? `. Assinado eletronicamente por ${s.printedName} (${s.username}) em ${clock.dateTime(s.signedAt)} — ${s.meaning}` : '';
  return `${who} ${clock.dateTime(alarm.acknowledgedAt)}${message}${signed}`;
}

const READING_COLUMNS: Column[] = [
  { header: T.dateTime, weight: 24 },
  { header: T.temperatureColumn, weight: 17, align: 'right' },
  { header: T.humidityColumn, weight: 15, align: 'right' },
  { header: T.batteryColumn, weight: 13, align: 'right' },
  { header: T.latitude, weight: 15.5, align: 'right' },
  { header: T.longitude, weight: 15.5, align: 'right' },
];

function drawReadings(doc: Doc, section: DeviceSection, clock: ZonedClock): void {
  drawSectionTitle(doc, `${T.readingsTable} (${formatCount(section.readings.length)})`);
  if (section.readings.length === 0) {
    drawNote(doc, T.noReadings);
    return;
  }
  drawNote(doc, 'Valores fora dos limites configurados aparecem em vermelho e negrito.');
  doc.y -= 4;
  drawTable(doc, READING_COLUMNS, readingRows(section, clock), { zebra: true });
}

function* readingRows(section: DeviceSection, clock: ZonedClock): Generator<Cell[]> {
  const { temperature, humidity } = section.limits;
  for (const reading of section.readings) {
    yield [
      clock.dateTime(reading.ts),
      valueCell(reading.temperature, rangeStatus(reading.temperature, temperature) !== null),
      valueCell(reading.humidity, rangeStatus(reading.humidity, humidity) !== null),
      reading.battery === null ? '' : formatDecimal(reading.battery, 0),
      reading.lat === null ? '' : formatDecimal(reading.lat, 6),
      reading.lng === null ? '' : formatDecimal(reading.lng, 6),
    ];
  }
}

function valueCell(value: number | null, outOfRange: boolean): Cell {
  if (value === null) return '';
  const text = formatDecimal(value);
  return outOfRange ? flagged(text) : text;
}
