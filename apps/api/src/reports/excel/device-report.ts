/**
 * The device history as a spreadsheet (R1): "Resumo" (what the PDF's first page says), "Leituras" (one typed row
 * per reading), "Excursões" and "Alarmes". Written with exceljs's streaming writer: each row goes to the zip
 * stream as it is committed, so memory stays flat at 100,000 readings.
 *
 * Times are written as Excel dates showing the local wall time of input.timeZone (Excel dates carry no zone: the
 * serial number is the wall time), with the zone named in "Resumo".
 */
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import ExcelJS from 'exceljs';
import { coverageText, gapsText, intervalText, lostText } from '../coverage-text';
import { formatLimits, isBounded, type ZonedClock, zonedClock } from '../format';
import { computeStatistics, rangeStatus, type ReportStatistics } from '../statistics';
import { alarmTypeName, calibrationLine, EXCURSION_KIND_NAMES, QUANTITY_NAMES, REPORT_TEXTS as T } from '../texts';
import type { DeviceReportInput } from '../types';

const DATE_TIME = 'dd/mm/yyyy hh:mm:ss';
const DECIMAL = '0.00';
const COORDINATE = '0.000000';
const DURATION = '[h]:mm:ss';
const DAY_MS = 86_400_000;
const ROWS_PER_CHECK = 500;
const HEADER_FONT: Partial<ExcelJS.Font> = { bold: true };
const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFE7F1F3' } };
const ALERT_FONT: Partial<ExcelJS.Font> = { bold: true, color: { argb: 'FFC92A2A' } };

export const SHEET_NAMES = { summary: 'Resumo', readings: 'Leituras', excursions: 'Excursões', alarms: 'Alarmes', gaps: 'Lacunas' } as const;

export async function writeDeviceReportXlsx(input: DeviceReportInput, filePath: string): Promise<void> {
  const clock = zonedClock(input.timeZone);
  const stats = computeStatistics(input.readings, input.limits);
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    filename: filePath,
    useStyles: true,
    // Inline strings: a shared-strings table would be held in memory until the end.
    useSharedStrings: false,
    // Fast deflate: the readings sheet is mostly digits and compresses well at any level.
    zip: { zlib: { level: 1 } },
  });
  workbook.creator = 'Sentinela';
  workbook.lastModifiedBy = 'Sentinela';
  workbook.created = input.generatedAt;
  workbook.modified = input.generatedAt;
  workbook.title = `${T.deviceTitle} - ${input.device.name}`;

  writeSummary(workbook, input, stats, clock);
  await writeReadings(workbook, input, clock);
  writeExcursions(workbook, stats, clock);
  writeAlarms(workbook, input, clock);
  writeGaps(workbook, input, clock);
  await workbook.commit();
}

type Value = string | number | Date | null;

function writeSummary(workbook: ExcelJS.stream.xlsx.WorkbookWriter, input: DeviceReportInput, stats: ReportStatistics, clock: ZonedClock): void {
  const sheet = workbook.addWorksheet(SHEET_NAMES.summary);
  sheet.columns = [{ width: 40 }, { width: 64 }];
  const date = (value: Date | null) => (value ? clock.wallClockDate(value) : null);
  const rows: Array<[label: string, value: Value, numFmt?: string]> = [
    [T.enterprise, input.enterprise?.name ?? null],
    [T.device, input.device.name],
    [T.mac, input.device.mac],
    [T.serial, input.device.serial],
    [T.calibration, calibrationLine(input.calibration)],
  ];
  if (input.travel) {
    rows.push(
      [T.travel, input.travel.code],
      [`${T.status} da viagem`, input.travel.status],
      [T.origin, input.travel.origin],
      [T.destination, input.travel.destination],
      [T.responsible, input.travel.responsible],
    );
  }
  rows.push(
    [`${T.period}: início`, date(input.period.from), DATE_TIME],
    [`${T.period}: fim`, date(input.period.to), DATE_TIME],
    [T.timeZone, clock.timeZone],
  );
  const filters = input.valueFilters;
  if (isBounded(filters.temperature)) rows.push([`${T.filters}: temperatura`, formatLimits(filters.temperature, '°C')]);
  if (isBounded(filters.humidity)) rows.push([`${T.filters}: umidade`, formatLimits(filters.humidity, '%')]);
  rows.push(
    ['Limite mínimo de temperatura (°C)', input.limits.temperature.min, DECIMAL],
    ['Limite máximo de temperatura (°C)', input.limits.temperature.max, DECIMAL],
    ['Limite mínimo de umidade (%)', input.limits.humidity.min, DECIMAL],
    ['Limite máximo de umidade (%)', input.limits.humidity.max, DECIMAL],
    [T.readings, stats.count, '0'],
    [T.firstReading, date(stats.first), DATE_TIME],
    [T.lastReading, date(stats.last), DATE_TIME],
    ['Temperatura mínima (°C)', stats.temperature.min, DECIMAL],
    ['Temperatura máxima (°C)', stats.temperature.max, DECIMAL],
    ['Temperatura média (°C)', stats.temperature.mean, DECIMAL],
    [`${T.mkt} (°C)`, stats.temperature.mkt, DECIMAL],
    ['Umidade mínima (%)', stats.humidity.min, DECIMAL],
    ['Umidade máxima (%)', stats.humidity.max, DECIMAL],
    ['Umidade média (%)', stats.humidity.mean, DECIMAL],
    [`${T.timeOutOfRange} (h:mm:ss)`, stats.timeOutOfRangeMs / DAY_MS, DURATION],
    [T.excursions, stats.excursions.length, '0'],
    [T.alarms, input.alarms.length, '0'],
    [T.coverageValue, coverageText(input.coverage, (at) => clock.dateTime(at))],
    [T.expectedInterval, intervalText(input.coverage)],
    [T.gaps, gapsText(input.coverage)],
    [T.lostReadings, lostText(input.coverage, T.noCounters)],
    [T.generatedAt, date(input.generatedAt), DATE_TIME],
    [T.issuer, `${input.issuer.name} (${input.issuer.username})`],
    [T.reportId, input.reportId],
  );

  const title = sheet.addRow([T.deviceTitle]);
  title.font = { bold: true, size: 14 };
  title.commit();
  sheet.addRow([]).commit();
  for (const [label, value, numFmt] of rows) {
    const row = sheet.addRow([label, value]);
    row.getCell(1).font = HEADER_FONT;
    if (numFmt) row.getCell(2).numFmt = numFmt;
    // Left-aligned like the texts around them, so the column reads as one list.
    row.getCell(2).alignment = { horizontal: 'left' };
    row.commit();
  }
  sheet.commit();
}

async function writeReadings(workbook: ExcelJS.stream.xlsx.WorkbookWriter, input: DeviceReportInput, clock: ZonedClock): Promise<void> {
  const sheet = workbook.addWorksheet(SHEET_NAMES.readings, { views: [{ state: 'frozen', ySplit: 1 }] });
  // Column styles are inherited by every cell of the column: the number formats cost nothing per row.
  sheet.columns = [
    { header: T.dateTime, width: 20, style: { numFmt: DATE_TIME } },
    { header: T.temperatureColumn, width: 17, style: { numFmt: DECIMAL } },
    { header: T.humidityColumn, width: 14, style: { numFmt: DECIMAL } },
    { header: T.batteryColumn, width: 12, style: { numFmt: '0' } },
    { header: T.latitude, width: 13, style: { numFmt: COORDINATE } },
    { header: T.longitude, width: 13, style: { numFmt: COORDINATE } },
    { header: T.outOfRangeColumn, width: 14 },
  ];
  styleHeader(sheet.getRow(1), 7);
  sheet.getRow(1).commit();

  // exceljs finds a style id by serialising the style, unless it has seen that very style object before: every
  // cell of a column, and every row, shares one object, so the lookups are WeakMap hits instead of 800,000
  // serialisations.
  const styles = columnStyles(sheet, 7);
  const rowStyle: Partial<ExcelJS.Style> = {};
  const alert = styles.map((style) => ({ ...style, font: ALERT_FONT }));
  const { temperature, humidity } = input.limits;
  let written = 0;
  for (const reading of input.readings) {
    const temperatureOut = rangeStatus(reading.temperature, temperature) !== null;
    const humidityOut = rangeStatus(reading.humidity, humidity) !== null;
    const row = sheet.addRow([
      clock.wallClockDate(reading.ts),
      reading.temperature,
      reading.humidity,
      reading.battery,
      reading.lat,
      reading.lng,
      temperatureOut || humidityOut ? T.yes : T.no,
    ]);
    for (let index = 0; index < 7; index++) {
      const flagged = (index === 1 && temperatureOut) || (index === 2 && humidityOut);
      row.getCell(index + 1).style = flagged ? alert[index]! : styles[index]!;
    }
    (row as unknown as { style: Partial<ExcelJS.Style> }).style = rowStyle; // a plain field, untyped
    row.commit();
    if (++written % ROWS_PER_CHECK === 0) await drained(sheet);
  }
  sheet.commit();
}

/**
 * Waits until the zip entry the sheet writes into has taken what it was given. exceljs writes committed rows to
 * that stream (then zlib, then the file) ignoring backpressure, and the loop above never yields on its own: without
 * this the whole sheet would pile up in memory before the first byte reached the file. The entry stream is an
 * exceljs/archiver internal (`stream.pipes`, a readable-stream PassThrough whose state is `_writableState`), named
 * here; until archiver starts the entry there is none, and the rows wait in exceljs's buffers for a few turns.
 */
async function drained(sheet: ExcelJS.Worksheet): Promise<void> {
  const { pipes } = (sheet as unknown as { stream: { pipes: EntryStream[] } }).stream;
  for (let turn = 0; pipes.length === 0 && turn < 100; turn++) await nextTurn();
  for (const pipe of pipes) {
    const state = pipe._writableState;
    if (state && state.length >= state.highWaterMark) await once(pipe, 'drain');
  }
}

type EntryStream = Writable & { _writableState?: { length: number; highWaterMark: number } };

/** One style object per column (its number format), shared by the column's cells. */
function columnStyles(sheet: ExcelJS.Worksheet, count: number): Array<Partial<ExcelJS.Style>> {
  return Array.from({ length: count }, (_, index) => {
    const numFmt = sheet.getColumn(index + 1).numFmt;
    return numFmt ? { numFmt } : {};
  });
}

function writeExcursions(workbook: ExcelJS.stream.xlsx.WorkbookWriter, stats: ReportStatistics, clock: ZonedClock): void {
  const sheet = workbook.addWorksheet(SHEET_NAMES.excursions, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'Nº', width: 6 },
    { header: T.quantity, width: 14 },
    { header: T.type, width: 18 },
    { header: T.start, width: 20, style: { numFmt: DATE_TIME } },
    { header: T.end, width: 20, style: { numFmt: DATE_TIME } },
    { header: `${T.duration} (h:mm:ss)`, width: 18, style: { numFmt: DURATION } },
    { header: T.extreme, width: 14, style: { numFmt: DECIMAL } },
    { header: 'Unidade', width: 9 },
  ];
  styleHeader(sheet.getRow(1), 8);
  sheet.getRow(1).commit();
  stats.excursions.forEach((excursion, index) => {
    sheet
      .addRow([
        index + 1,
        QUANTITY_NAMES[excursion.quantity],
        EXCURSION_KIND_NAMES[excursion.kind],
        clock.wallClockDate(excursion.start),
        clock.wallClockDate(excursion.end),
        excursion.durationMs / DAY_MS,
        excursion.extreme,
        excursion.quantity === 'temperature' ? '°C' : '%',
      ])
      .commit();
  });
  sheet.commit();
}

function writeAlarms(workbook: ExcelJS.stream.xlsx.WorkbookWriter, input: DeviceReportInput, clock: ZonedClock): void {
  const sheet = workbook.addWorksheet(SHEET_NAMES.alarms, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: T.dateTime, width: 20, style: { numFmt: DATE_TIME } },
    { header: T.type, width: 18 },
    { header: T.message, width: 48 },
    { header: 'Temperatura mínima (°C)', width: 14, style: { numFmt: DECIMAL } },
    { header: 'Temperatura máxima (°C)', width: 14, style: { numFmt: DECIMAL } },
    { header: 'Umidade mínima (%)', width: 14, style: { numFmt: DECIMAL } },
    { header: 'Umidade máxima (%)', width: 14, style: { numFmt: DECIMAL } },
    { header: T.status, width: 12 },
    { header: 'Reconhecido em', width: 20, style: { numFmt: DATE_TIME } },
    { header: 'Reconhecido por', width: 24 },
    { header: 'Mensagem do reconhecimento', width: 48 },
  ];
  styleHeader(sheet.getRow(1), 11);
  sheet.getRow(1).commit();
  for (const alarm of input.alarms) {
    sheet
      .addRow([
        clock.wallClockDate(alarm.occurredAt),
        alarmTypeName(alarm.type),
        alarm.message,
        alarm.temperature.min,
        alarm.temperature.max,
        alarm.humidity.min,
        alarm.humidity.max,
        alarm.active ? T.active : T.closed,
        alarm.acknowledgedAt ? clock.wallClockDate(alarm.acknowledgedAt) : null,
        alarm.acknowledgedAt ? alarm.acknowledgedBy : T.notAcknowledged,
        // A signed acknowledgement (GxP mode, ADR 0062) says so with its message.
        alarm.signature
          ? `${alarm.acknowledgementMessage ?? ''} — Assinado eletronicamente por ${alarm.signature.printedName} (${alarm.signature.username}) em ${clock.dateTime(alarm.signature.signedAt)} — ${alarm.signature.meaning}`
          : alarm.acknowledgementMessage,
      ])
      .commit();
  }
  sheet.commit();
}

/** "Lacunas" (ADR 0035): the silences longer than the threshold, with the coverage they leave. */
function writeGaps(workbook: ExcelJS.stream.xlsx.WorkbookWriter, input: DeviceReportInput, clock: ZonedClock): void {
  const sheet = workbook.addWorksheet(SHEET_NAMES.gaps, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = [
    { header: 'Nº', width: 6 },
    { header: T.start, width: 20, style: { numFmt: DATE_TIME } },
    { header: T.end, width: 20, style: { numFmt: DATE_TIME } },
    { header: `${T.duration} (h:mm:ss)`, width: 18, style: { numFmt: DURATION } },
  ];
  styleHeader(sheet.getRow(1), 4);
  sheet.getRow(1).commit();
  input.coverage.gaps.forEach((gap, index) => {
    sheet.addRow([index + 1, clock.wallClockDate(new Date(gap.start)), clock.wallClockDate(new Date(gap.end)), gap.durationMs / DAY_MS]).commit();
  });
  if (input.coverage.gaps.length < input.coverage.gapCount) sheet.addRow([T.moreGaps(input.coverage.gaps.length, input.coverage.gapCount)]).commit();
  sheet.commit();
}

function styleHeader(row: ExcelJS.Row, cells: number): void {
  for (let index = 1; index <= cells; index++) {
    const cell = row.getCell(index);
    cell.font = HEADER_FONT;
    cell.fill = HEADER_FILL;
    cell.alignment = { vertical: 'middle', wrapText: true };
  }
}
