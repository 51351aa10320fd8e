import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dayjs } from '../../lib/dayjs';
import { EMPTY } from '../../lib/format';
import type { ChartModel, LineKind, Measure } from './model';

/** Fixed line colours (spec 001 §9): one hue per measure, red dashed limits. */
const COLORS: Record<Measure, { mean: string; edge: string; band: string }> = {
  temperature: { mean: '#d9480f', edge: '#ffa94d', band: 'rgba(255, 169, 77, 0.22)' },
  humidity: { mean: '#1864ab', edge: '#74c0fc', band: 'rgba(116, 192, 252, 0.25)' },
};
const LIMIT_COLOR = '#e03131';

const decimal2 = new Intl.NumberFormat('pt-BR', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const axisNumber = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 2 });

function lineStyle(kind: LineKind, measure: Measure): Pick<uPlot.Series, 'stroke' | 'width' | 'dash'> {
  const colors = COLORS[measure];
  switch (kind) {
    case 'mean':
    case 'value':
      return { stroke: colors.mean, width: 2 };
    case 'min':
    case 'max':
      return { stroke: colors.edge, width: 1 };
    case 'limitMin':
    case 'limitMax':
      return { stroke: LIMIT_COLOR, width: 1.5, dash: [6, 4] };
  }
}

const heightFor = (width: number) => (width < 576 ? 260 : 340);

function buildOptions(model: ChartModel, measure: Measure, width: number): uPlot.Options {
  const times = model.data[0];
  const spanSeconds = times.length > 1 ? times[times.length - 1]! - times[0]! : 0;
  // Ticks show the hour; over more than a day, the date above it.
  const tickFormat = spanSeconds > 86_400 ? 'DD/MM[\n]HH:mm' : 'HH:mm';
  const index = (kind: LineKind) => model.lines.findIndex((line) => line.kind === kind) + 1;
  const band = index('max') > 0 && index('min') > 0 ? [{ series: [index('max'), index('min')] as [number, number], fill: COLORS[measure].band }] : [];

  return {
    width,
    height: heightFor(width),
    cursor: { drag: { x: true, y: false } },
    scales: { x: { time: true } },
    legend: { live: true },
    series: [
      {
        label: 'Horário',
        value: (_u, value) => (value === null || value === undefined ? EMPTY : dayjs.unix(value).format('DD/MM/YYYY HH:mm:ss')),
      },
      ...model.lines.map<uPlot.Series>((line) => ({
        label: line.label,
        ...lineStyle(line.kind, measure),
        points: { show: false },
        value: (_u, value) => (value === null || value === undefined ? EMPTY : `${decimal2.format(value)} ${model.unit}`),
      })),
    ],
    bands: band,
    axes: [
      {
        label: 'Horário',
        space: 70,
        size: spanSeconds > 86_400 ? 56 : 44,
        values: (_u, splits) => splits.map((value) => dayjs.unix(value).format(tickFormat)),
      },
      {
        label: model.unit,
        size: 56,
        values: (_u, splits) => splits.map((value) => axisNumber.format(value)),
      },
    ],
  };
}

/**
 * A uPlot line chart of one measure, sized to its container: it follows the container's width (down to phones)
 * through a ResizeObserver. Screens load it lazily, on its own chunk (device history Gráfico, travel graph modal).
 */
export default function LineChart({ model, measure }: { model: ChartModel; measure: Measure }) {
  const containerRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const width = Math.max(200, Math.floor(container.clientWidth));
    const plot = new uPlot(buildOptions(model, measure, width), model.data, container);
    const observer = new ResizeObserver(([entry]) => {
      const next = Math.floor(entry?.contentRect.width ?? 0);
      if (next > 0 && next !== plot.width) plot.setSize({ width: next, height: heightFor(next) });
    });
    observer.observe(container);
    return () => {
      observer.disconnect();
      plot.destroy();
    };
  }, [model, measure]);

  return <div ref={containerRef} data-testid="history-chart" style={{ width: '100%', minWidth: 0 }} />;
}
