/**
 * The readings chart: temperature and humidity over time as vector lines, one panel per quantity sharing the time
 * axis (two scales in one panel are easy to misread), the limits as dashed lines, a legend, and local-time ticks.
 * Series are thinned by min/max buckets (downsample.ts), so the chart costs the same at 1,000 or 100,000 readings.
 */
import type { ZonedClock } from '../format';
import { formatDecimal } from '../format';
import type { Quantity } from '../statistics';
import { QUANTITY_NAMES, QUANTITY_UNITS } from '../texts';
import type { Range, ReportLimits, ReportReading } from '../types';
import { downsampleMinMax, type Segments } from './downsample';
import { COLOR, type Doc, ensureSpace, FONT, PAGE, textAt, textRightAt } from './layout';

const BUCKETS = 500;
const LEGEND_HEIGHT = 16;
const PANEL_TITLE = 12;
const PANEL_HEIGHT = 112;
const PANEL_GAP = 10;
const AXIS_HEIGHT = 32;
const PLOT_LEFT = PAGE.left + 38;
const PLOT_RIGHT = PAGE.right - 8;

const SERIES_COLOR: Record<Quantity, string> = { temperature: COLOR.temperature, humidity: COLOR.humidity };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const TIME_STEPS = [MINUTE, 2 * MINUTE, 5 * MINUTE, 10 * MINUTE, 15 * MINUTE, 30 * MINUTE, HOUR, 2 * HOUR, 3 * HOUR, 6 * HOUR, 12 * HOUR, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 28 * DAY];
const MAX_TIME_TICKS = 7;

export interface ChartOptions {
  clock: ZonedClock;
  /** A pause longer than this breaks the line (statistics: GAP_FACTOR × the median interval). */
  gapMs: number | null;
}

/** Height the chart takes for these readings (0 when there is nothing to draw). */
export function chartHeight(readings: readonly ReportReading[]): number {
  const panels = quantitiesWithData(readings).length;
  return panels === 0 ? 0 : LEGEND_HEIGHT + panels * (PANEL_TITLE + PANEL_HEIGHT) + (panels - 1) * PANEL_GAP + AXIS_HEIGHT;
}

export function drawReadingsChart(doc: Doc, readings: readonly ReportReading[], limits: ReportLimits, options: ChartOptions): void {
  const quantities = quantitiesWithData(readings);
  if (quantities.length === 0) return;
  ensureSpace(doc, chartHeight(readings));
  const from = readings[0]!.ts.getTime();
  const last = readings.at(-1)!.ts.getTime();
  // A single instant still needs a width: centre it in an hour.
  const [start, end] = last > from ? [from, last] : [from - 30 * MINUTE, from + 30 * MINUTE];
  const timeTicks = chooseTimeTicks(start, end, options.clock);
  const xOf = (t: number) => PLOT_LEFT + ((t - start) / (end - start)) * (PLOT_RIGHT - PLOT_LEFT);

  let y = doc.y;
  drawLegend(doc, quantities, y);
  y += LEGEND_HEIGHT;
  for (const quantity of quantities) {
    const segments = downsampleMinMax(readings, quantity, { from: start, to: end, buckets: BUCKETS, gapMs: options.gapMs });
    const title = `${QUANTITY_NAMES[quantity]} (${QUANTITY_UNITS[quantity]})`;
    drawPanel(doc, { title, titleColor: SERIES_COLOR[quantity], series: [{ color: SERIES_COLOR[quantity], segments }], limits: limits[quantity], top: y, timeTicks, xOf });
    y += PANEL_TITLE + PANEL_HEIGHT + PANEL_GAP;
  }
  y -= PANEL_GAP;
  drawTimeAxis(doc, timeTicks, xOf, y, options.clock);
  doc.x = PAGE.left;
  doc.y = y + AXIS_HEIGHT;
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
}

function quantitiesWithData(readings: readonly ReportReading[]): Quantity[] {
  const has = { temperature: false, humidity: false };
  for (const reading of readings) {
    if (reading.temperature !== null) has.temperature = true;
    if (reading.humidity !== null) has.humidity = true;
    if (has.temperature && has.humidity) break;
  }
  return (['temperature', 'humidity'] as const).filter((quantity) => has[quantity]);
}

function drawLegend(doc: Doc, quantities: readonly Quantity[], y: number): void {
  doc.font(FONT.regular).fontSize(8).fillColor(COLOR.text);
  let x = PLOT_LEFT;
  const item = (label: string, color: string, dashed: boolean) => {
    doc.save().lineWidth(dashed ? 1 : 1.6).strokeColor(color);
    if (dashed) doc.dash(3, { space: 2 });
    doc.moveTo(x, y + 4).lineTo(x + 18, y + 4).stroke().restore();
    textAt(doc, label, x + 22, y);
    x += 22 + doc.widthOfString(label) + 18;
  };
  for (const quantity of quantities) item(`${QUANTITY_NAMES[quantity]} (${QUANTITY_UNITS[quantity]})`, SERIES_COLOR[quantity], false);
  item('Limites configurados', COLOR.limit, true);
}

/** One line of a panel: its colour, dashed or not (a second round of the palette), and its runs of points. */
export interface ChartSeries {
  color: string;
  dashed?: boolean;
  segments: Segments;
}

interface Panel {
  title: string;
  titleColor: string;
  series: readonly ChartSeries[];
  limits: Range;
  top: number;
  timeTicks: number[];
  xOf: (t: number) => number;
}

function drawPanel(doc: Doc, panel: Panel): void {
  const { series, limits, timeTicks, xOf } = panel;
  doc.font(FONT.bold).fontSize(8).fillColor(panel.titleColor);
  textAt(doc, panel.title, PLOT_LEFT, panel.top);
  const top = panel.top + PANEL_TITLE;
  const bottom = top + PANEL_HEIGHT;

  // The scale takes in the data and the limits, so that both the line and its limits are on the chart.
  let low = Number.POSITIVE_INFINITY;
  let high = Number.NEGATIVE_INFINITY;
  for (const { segments } of series) for (const segment of segments) for (const point of segment) {
    if (point.v < low) low = point.v;
    if (point.v > high) high = point.v;
  }
  for (const limit of [limits.min, limits.max]) if (limit !== null) {
    low = Math.min(low, limit);
    high = Math.max(high, limit);
  }
  const scale = niceScale(low, high);
  const yOf = (v: number) => bottom - ((v - scale.min) / (scale.max - scale.min)) * PANEL_HEIGHT;

  doc.save().lineWidth(0.4).strokeColor(COLOR.grid);
  for (const tick of scale.ticks) doc.moveTo(PLOT_LEFT, yOf(tick)).lineTo(PLOT_RIGHT, yOf(tick));
  for (const tick of timeTicks) doc.moveTo(xOf(tick), top).lineTo(xOf(tick), bottom);
  doc.stroke().restore();
  doc.save().lineWidth(0.6).strokeColor(COLOR.rule).rect(PLOT_LEFT, top, PLOT_RIGHT - PLOT_LEFT, PANEL_HEIGHT).stroke().restore();

  doc.font(FONT.regular).fontSize(7).fillColor(COLOR.muted);
  for (const tick of scale.ticks) textRightAt(doc, formatDecimal(tick, scale.decimals), PLOT_LEFT - 4, yOf(tick) - 3);

  doc.save().lineWidth(0.9).strokeColor(COLOR.limit).dash(4, { space: 3 });
  for (const limit of [limits.min, limits.max]) if (limit !== null) doc.moveTo(PLOT_LEFT, yOf(limit)).lineTo(PLOT_RIGHT, yOf(limit));
  doc.stroke().undash().restore();

  for (const { color, dashed, segments } of series) {
    doc.save().lineWidth(0.9).lineJoin('round').strokeColor(color).fillColor(color);
    if (dashed) doc.dash(5, { space: 2 });
    for (const segment of segments) {
      const first = segment[0]!;
      if (segment.length === 1) {
        doc.circle(xOf(first.t), yOf(first.v), 1.3).fill();
        continue;
      }
      doc.moveTo(xOf(first.t), yOf(first.v));
      for (let i = 1; i < segment.length; i++) doc.lineTo(xOf(segment[i]!.t), yOf(segment[i]!.v));
      doc.stroke();
    }
    if (dashed) doc.undash();
    doc.restore();
  }
}

/** Distinct line colours (Tableau 10): a mapping study draws up to 30 sensors in one panel, a second round dashed. */
export const SERIES_PALETTE = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'] as const;

/** A series' colour and dash by its index, so that the legend, the chart and the tables name it the same way. */
export function seriesStyle(index: number): { color: string; dashed: boolean } {
  return { color: SERIES_PALETTE[index % SERIES_PALETTE.length]!, dashed: Math.floor(index / SERIES_PALETTE.length) % 2 === 1 };
}

export interface LabelledSeries extends ChartSeries {
  label: string;
}

const MULTI_LEGEND_LINE = 11;

/**
 * Several series of one quantity in one panel, with their legend and the limits (a mapping study: every sensor of
 * a cold room together). The series come already thinned (downsampleMinMax), over [start, end].
 */
export function drawSeriesChart(
  doc: Doc,
  chart: { title: string; series: readonly LabelledSeries[]; limits: Range; start: number; end: number; clock: ZonedClock; limitsLabel?: string },
): void {
  const [start, end] = chart.end > chart.start ? [chart.start, chart.end] : [chart.start - 30 * MINUTE, chart.start + 30 * MINUTE];
  // The legend wraps: measured first so the whole chart keeps to one page.
  doc.font(FONT.regular).fontSize(7.5);
  const items = [...chart.series.map((s) => ({ label: s.label, color: s.color, dashed: s.dashed ?? false, limit: false }))];
  if (chart.limits.min !== null || chart.limits.max !== null) items.push({ label: chart.limitsLabel ?? 'Limites do estudo', color: COLOR.limit, dashed: true, limit: true });
  const placed: Array<{ item: (typeof items)[number]; x: number; line: number }> = [];
  let x = PLOT_LEFT;
  let line = 0;
  for (const item of items) {
    const width = 22 + doc.widthOfString(item.label) + 12;
    if (x + width > PLOT_RIGHT && x > PLOT_LEFT) {
      x = PLOT_LEFT;
      line += 1;
    }
    placed.push({ item, x, line });
    x += width;
  }
  const legendHeight = (line + 1) * MULTI_LEGEND_LINE + 4;
  ensureSpace(doc, legendHeight + PANEL_TITLE + PANEL_HEIGHT + AXIS_HEIGHT);
  const top = doc.y;
  doc.fillColor(COLOR.text);
  for (const { item, x: itemX, line: itemLine } of placed) {
    const y = top + itemLine * MULTI_LEGEND_LINE;
    doc.save().lineWidth(item.limit ? 1 : 1.6).strokeColor(item.color);
    if (item.dashed) doc.dash(item.limit ? 3 : 5, { space: 2 });
    doc.moveTo(itemX, y + 4).lineTo(itemX + 18, y + 4).stroke().restore();
    doc.font(FONT.regular).fontSize(7.5).fillColor(COLOR.text);
    textAt(doc, item.label, itemX + 22, y);
  }
  const timeTicks = chooseTimeTicks(start, end, chart.clock);
  const xOf = (t: number) => PLOT_LEFT + ((t - start) / (end - start)) * (PLOT_RIGHT - PLOT_LEFT);
  const panelTop = top + legendHeight;
  drawPanel(doc, { title: chart.title, titleColor: COLOR.text, series: chart.series, limits: chart.limits, top: panelTop, timeTicks, xOf });
  const bottom = panelTop + PANEL_TITLE + PANEL_HEIGHT;
  drawTimeAxis(doc, timeTicks, xOf, bottom, chart.clock);
  doc.x = PAGE.left;
  doc.y = bottom + AXIS_HEIGHT;
  doc.font(FONT.regular).fontSize(9).fillColor(COLOR.text);
}

function drawTimeAxis(doc: Doc, ticks: readonly number[], xOf: (t: number) => number, bottom: number, clock: ZonedClock): void {
  doc.font(FONT.regular).fontSize(7).fillColor(COLOR.muted);
  const step = ticks.length > 1 ? ticks[1]! - ticks[0]! : HOUR;
  let previousDay = '';
  for (const tick of ticks) {
    const [date, time] = clock.dateTimeMinutes(tick).split(' ') as [string, string];
    const day = date.slice(0, 5); // DD/MM
    // Day steps show the date; shorter steps the time, with the date under the first tick of each day.
    const lines = step >= DAY ? [day] : [time, day === previousDay ? '' : day];
    previousDay = day;
    const x = xOf(tick);
    lines.forEach((line, index) => {
      if (line) doc.text(line, x - doc.widthOfString(line) / 2, bottom + 3 + index * 8.5, { lineBreak: false });
    });
  }
  const caption = `Data/hora local (${clock.timeZone})`;
  doc.text(caption, (PLOT_LEFT + PLOT_RIGHT) / 2 - doc.widthOfString(caption) / 2, bottom + 21, { lineBreak: false });
}

/** Tick instants on round local times (whole hours, local midnights…), at most MAX_TIME_TICKS of them. */
export function chooseTimeTicks(start: number, end: number, clock: ZonedClock): number[] {
  const span = end - start;
  const step = TIME_STEPS.find((candidate) => span / candidate <= MAX_TIME_TICKS - 1) ?? Math.ceil(span / (MAX_TIME_TICKS - 1) / DAY) * DAY;
  const ticks: number[] = [];
  // Align in local wall time, then step in local time too (a DST change keeps ticks on round hours).
  const offset = clock.offsetMs(start);
  let local = Math.ceil((start + offset) / step) * step;
  while (ticks.length < 100) {
    const guess = local - offset;
    const instant = local - clock.offsetMs(guess);
    if (instant > end) break;
    if (instant >= start) ticks.push(instant);
    local += step;
  }
  return ticks;
}

/** A scale with round ticks covering [low, high], padded a little so lines do not run along the frame. */
export function niceScale(low: number, high: number, target = 5): { min: number; max: number; ticks: number[]; decimals: number } {
  if (!Number.isFinite(low) || !Number.isFinite(high)) [low, high] = [0, 1];
  if (high - low < 1e-9) [low, high] = [low - 1, high + 1];
  const padding = (high - low) * 0.06;
  low -= padding;
  high += padding;
  const raw = (high - low) / target;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const normalised = raw / magnitude;
  const step = (normalised < 1.5 ? 1 : normalised < 3 ? 2 : normalised < 7 ? 5 : 10) * magnitude;
  const min = Math.floor(low / step) * step;
  const max = Math.ceil(high / step) * step;
  const ticks: number[] = [];
  for (let tick = min; tick <= max + step / 2; tick += step) ticks.push(Math.round(tick / step) * step);
  return { min, max, ticks, decimals: Math.max(0, -Math.floor(Math.log10(step))) };
}
