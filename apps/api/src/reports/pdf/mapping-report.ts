/**
 * The thermal mapping study report (X12, issue 24 point 4, ADR 0083), in the manner of WHO TRS 961 Supplement 8: the
 * study (space, period, range), every sensor's calibration, all sensors in one chart, the figures per sensor, the
 * hottest and the coldest point, and the spread between the sensors over time. Unsigned: the caller signs it.
 */
import { formatCount, formatDecimal, formatDuration, formatLimits, formatOptionalDecimal, formatPercent, type ZonedClock, zonedClock } from '../format';
import { computeMappingFigures, type MappingFigures, type SpreadPoint } from '../mapping-statistics';
import { calibrationLine, generatedLine, REPORT_TEXTS as T } from '../texts';
import type { MappingReportInput } from '../types';
import { downsampleMinMax } from './downsample';
import { drawSeriesChart, seriesStyle, type LabelledSeries } from './chart';
import { periodText } from './device-section';
import { createReportDocument, documentToBuffer, drawFields, drawNote, drawReportHeading, drawSectionTitle, type Field, stampPages } from './layout';
import { type Cell, type Column, drawTable, flagged } from './tables';

export const MAPPING_TEXTS = {
  title: 'Estudo de mapeamento térmico',
  subtitle: 'Qualificação térmica do espaço (OMS TRS 961, Suplemento 8)',
  study: 'Estudo',
  location: 'Local',
  noLocation: 'Não informado',
  studyLimits: 'Faixa de temperatura',
  sensors: 'Sensores',
  calibrations: 'Calibração dos sensores',
  chart: 'Temperatura de todos os sensores',
  figures: 'Resultados por sensor',
  hotCold: 'Pontos críticos',
  hottest: 'Ponto mais quente',
  coldest: 'Ponto mais frio',
  highestMax: 'Maior máxima registrada',
  lowestMin: 'Menor mínima registrada',
  criterion: 'Critério: a maior e a menor temperatura média do período (ADR 0083); as máximas e mínimas absolutas ao lado.',
  spread: 'Diferença entre o ponto mais quente e o mais frio',
  spreadChart: 'Diferença entre sensores (°C)',
  spreadLegend: 'Mais quente menos mais frio, por intervalo',
  maxSpread: 'Maior diferença',
  meanSpread: 'Diferença média',
  spreadTable: 'Diferença por intervalo',
  spreadNote: (minutes: string) => `Em cada intervalo de ${minutes}, a média de cada sensor; a diferença é a maior menos a menor.`,
  noSpread: 'Sem intervalos com leituras de dois ou mais sensores.',
  noReadings: 'Nenhum sensor tem leituras de temperatura no período.',
  sensorNoReadings: 'Sem leituras',
  timeInRange: 'Dentro da faixa',
  number: 'Nº',
  interval: 'Intervalo',
  warmestThen: 'Mais quente',
  coldestThen: 'Mais frio',
} as const;
const MT = MAPPING_TEXTS;

/** Rows of the spread table: the buckets merged to at most this many, each row its largest spread. */
const SPREAD_ROWS = 24;

export async function renderMappingReportPdf(input: MappingReportInput): Promise<Buffer> {
  const clock = zonedClock(input.timeZone);
  const { study } = input;
  const figures = computeMappingFigures(input.sensors, study.limits, study);
  const doc = createReportDocument({
    title: `${MT.title} - ${study.name}`,
    subject: `${study.name}, ${clock.dateTime(study.from)} a ${clock.dateTime(study.to)}`,
    keywords: `Sentinela, ${input.reportId}`,
    createdAt: input.generatedAt,
  });
  const label = (index: number) => `${index + 1}. ${input.sensors[index]!.name}`;

  drawReportHeading(doc, { title: `${MT.title} - ${study.name}`, subtitle: MT.subtitle, reportId: input.reportId });
  drawFields(doc, studyFields(input, clock));

  drawSectionTitle(doc, MT.hotCold);
  drawFields(doc, hotColdFields(input, figures, label));
  drawNote(doc, MT.criterion);

  drawSectionTitle(doc, MT.calibrations);
  drawTable(
    doc,
    [
      { header: MT.number, weight: 4, align: 'right' },
      { header: T.device, weight: 24 },
      { header: T.mac, weight: 17 },
      { header: T.calibration, weight: 55, wrap: true },
    ],
    input.sensors.map((sensor, index) => [String(index + 1), sensor.name, sensor.mac, calibrationLine(sensor.calibration)]),
    { zebra: true },
  );

  if (figures.hottest === null) drawNote(doc, MT.noReadings);
  else {
    drawSectionTitle(doc, MT.chart, 220);
    drawSeriesChart(doc, { title: `${MT.chart} (°C)`, series: sensorSeries(input, label), limits: study.limits, start: study.from.getTime(), end: study.to.getTime(), clock });
  }

  drawSectionTitle(doc, MT.figures);
  drawFigures(doc, input, figures);

  drawSectionTitle(doc, MT.spread, 220);
  drawSpread(doc, input, figures, clock, label);

  stampPages(doc, {
    runningTitle: `${MT.title} - ${study.name}`,
    generated: generatedLine(clock.dateTime(input.generatedAt), input.timeZone, input.issuer),
    reportId: input.reportId,
  });
  return documentToBuffer(doc);
}

function studyFields(input: MappingReportInput, clock: ZonedClock): Field[] {
  const { study } = input;
  return [
    { label: T.enterprise, value: input.enterprise?.name ?? '—', wide: true },
    { label: MT.study, value: study.name, wide: true },
    { label: MT.location, value: study.location ?? MT.noLocation },
    { label: MT.sensors, value: formatCount(input.sensors.length) },
    { label: T.period, value: periodText({ from: study.from, to: study.to }, clock), wide: true },
    { label: MT.studyLimits, value: formatLimits(study.limits, '°C') },
    { label: T.duration, value: formatDuration(study.to.getTime() - study.from.getTime()) },
  ];
}

function hotColdFields(input: MappingReportInput, figures: MappingFigures, label: (i: number) => string): Field[] {
  if (figures.hottest === null || figures.coldest === null) return [{ label: MT.hottest, value: '—' }, { label: MT.coldest, value: '—' }];
  const t = (i: number) => figures.sensors[i]!.stats.temperature;
  return [
    { label: MT.hottest, value: `${label(figures.hottest)} (${input.sensors[figures.hottest]!.mac}): média ${formatOptionalDecimal(t(figures.hottest).mean)} °C`, wide: true },
    { label: MT.coldest, value: `${label(figures.coldest)} (${input.sensors[figures.coldest]!.mac}): média ${formatOptionalDecimal(t(figures.coldest).mean)} °C`, wide: true },
    { label: MT.highestMax, value: `${formatOptionalDecimal(t(figures.highestMax!).max)} °C em ${label(figures.highestMax!)}`, wide: true },
    { label: MT.lowestMin, value: `${formatOptionalDecimal(t(figures.lowestMin!).min)} °C em ${label(figures.lowestMin!)}`, wide: true },
  ];
}

function sensorSeries(input: MappingReportInput, label: (i: number) => string): LabelledSeries[] {
  const from = input.study.from.getTime();
  const to = input.study.to.getTime();
  // Fewer points per sensor the more sensors: the page holds about the same ink whatever their number.
  const buckets = Math.max(60, Math.floor(1500 / Math.max(1, input.sensors.length)));
  return input.sensors.map((sensor, index) => ({
    label: label(index),
    ...seriesStyle(index),
    segments: downsampleMinMax(sensor.readings, 'temperature', { from, to, buckets, gapMs: null }),
  }));
}

function drawFigures(doc: PDFKit.PDFDocument, input: MappingReportInput, figures: MappingFigures): void {
  const { limits } = input.study;
  const columns: Column[] = [
    { header: MT.number, weight: 4, align: 'right' },
    { header: T.device, weight: 22 },
    { header: T.readings, weight: 9, align: 'right' },
    { header: `${T.minimum} (°C)`, weight: 9, align: 'right' },
    { header: `${T.maximum} (°C)`, weight: 9, align: 'right' },
    { header: `${T.mean} (°C)`, weight: 9, align: 'right' },
    { header: 'MKT (°C)', weight: 9, align: 'right' },
    { header: T.timeOutOfRange, weight: 16, align: 'right' },
    { header: MT.timeInRange, weight: 10, align: 'right' },
  ];
  const outside = (value: number | null): Cell => {
    const text = formatOptionalDecimal(value);
    return value !== null && ((limits.min !== null && value < limits.min) || (limits.max !== null && value > limits.max)) ? flagged(text) : text;
  };
  drawTable(
    doc,
    columns,
    figures.sensors.map(({ index, stats }) => {
      const sensor = input.sensors[index]!;
      if (stats.count === 0) return [String(index + 1), sensor.name, '0', '—', '—', '—', '—', MT.sensorNoReadings, '—'];
      const observed = stats.first && stats.last ? stats.last.getTime() - stats.first.getTime() : 0;
      const out = formatDuration(stats.timeOutOfRangeMs);
      return [
        String(index + 1),
        sensor.name,
        formatCount(stats.count),
        outside(stats.temperature.min),
        outside(stats.temperature.max),
        formatOptionalDecimal(stats.temperature.mean),
        formatOptionalDecimal(stats.temperature.mkt),
        stats.timeOutOfRangeMs > 0 ? flagged(out) : out,
        observed > 0 ? formatPercent(observed - stats.timeOutOfRangeMs, observed) : '—',
      ];
    }),
    { zebra: true },
  );
}

function drawSpread(doc: PDFKit.PDFDocument, input: MappingReportInput, figures: MappingFigures, clock: ZonedClock, label: (i: number) => string): void {
  const { spread, maxSpread } = figures;
  if (spread.length === 0 || !maxSpread) {
    drawNote(doc, MT.noSpread);
    return;
  }
  drawFields(doc, [
    { label: MT.maxSpread, value: `${formatDecimal(maxSpread.spread, 2)} °C em ${clock.dateTimeMinutes(maxSpread.from)} (${label(maxSpread.hottest)} / ${label(maxSpread.coldest)})`, wide: true },
    { label: MT.meanSpread, value: `${formatOptionalDecimal(figures.meanSpread)} °C` },
  ]);
  const bucketMinutes = (spread[0]!.to - spread[0]!.from) / 60_000;
  drawNote(doc, MT.spreadNote(formatDuration(bucketMinutes * 60_000)));
  // The spread as a line: its segments break where a bucket has fewer than two sensors.
  const segments: Array<Array<{ t: number; v: number }>> = [];
  let previous: SpreadPoint | null = null;
  for (const point of spread) {
    const t = (point.from + point.to) / 2;
    if (!previous || point.from - previous.to > 1) segments.push([]);
    segments.at(-1)!.push({ t, v: point.spread });
    previous = point;
  }
  drawSeriesChart(doc, {
    title: MT.spreadChart,
    series: [{ label: MT.spreadLegend, color: '#0b7285', segments }],
    limits: { min: null, max: null },
    start: input.study.from.getTime(),
    end: input.study.to.getTime(),
    clock,
  });

  drawSectionTitle(doc, MT.spreadTable);
  const group = Math.ceil(spread.length / SPREAD_ROWS);
  const rows: Cell[][] = [];
  for (let i = 0; i < spread.length; i += group) {
    const slice = spread.slice(i, i + group);
    const widest = slice.reduce((a, b) => (b.spread > a.spread ? b : a));
    rows.push([
      `${clock.dateTimeMinutes(slice[0]!.from)} a ${clock.dateTimeMinutes(slice.at(-1)!.to)}`,
      formatDecimal(widest.spread, 2),
      label(widest.hottest),
      label(widest.coldest),
    ]);
  }
  drawTable(
    doc,
    [
      { header: MT.interval, weight: 34 },
      { header: `${MT.maxSpread} (°C)`, weight: 16, align: 'right' },
      { header: MT.warmestThen, weight: 25 },
      { header: MT.coldestThen, weight: 25 },
    ],
    rows,
    { zebra: true },
  );
}
