import { describe, expect, it } from 'vitest';
import { hasChartData, toChartModel, withGaps } from './chart-data';
import { makeSeries } from './test-fixtures';

describe('series → uPlot data', () => {
  it('maps time, min, max and mean, then both limits as constant lines', () => {
    const model = toChartModel(makeSeries(), 'temperature');
    expect(model.data).toEqual([
      [1709300000, 1709300300, 1709300600],
      [-19.5, null, -18.2],
      [-18.5, null, -17.9],
      [-19, null, -18],
      [-22, -22, -22],
      [-16, -16, -16],
    ]);
    expect(model.lines.map((line) => line.label)).toEqual(['Mínima', 'Máxima', 'Média', 'Limite mínimo', 'Limite máximo']);
    expect(model.unit).toBe('°C');
  });

  it('draws only the limits that are set', () => {
    const model = toChartModel(makeSeries(), 'humidity');
    expect(model.data).toHaveLength(5);
    expect(model.data[4]).toEqual([80, 80, 80]);
    expect(model.lines.map((line) => line.kind)).toEqual(['min', 'max', 'mean', 'limitMax']);
    expect(model.unit).toBe('%');
    const none = toChartModel(
      makeSeries({ limits: { temperature: { min: null, max: null }, humidity: { min: null, max: null } } }),
      'temperature',
    );
    expect(none.data).toHaveLength(4);
  });
});

describe('gaps', () => {
  it('breaks the lines where readings are missing for much longer than usual', () => {
    const t = [0, 300, 600, 900, 4500, 4800, 5100];
    const mean = [1, 2, 3, 4, 5, 6, 7];
    // The break is one bucket after the last point before the gap (900 + 173), inside the gap.
    expect(withGaps(t, [mean], 173)).toEqual({
      t: [0, 300, 600, 900, 1073, 4500, 4800, 5100],
      rows: [[1, 2, 3, 4, null, 5, 6, 7]],
    });
  });

  it('leaves evenly spaced readings alone, also when every other bucket is empty', () => {
    const t = [0, 346, 692, 1038, 1211, 1557];
    expect(withGaps(t, [[1, 2, 3, 4, 5, 6]], 173).t).toEqual(t);
  });

  it('keeps the limit lines whole across a gap', () => {
    const series = makeSeries({ t: [0, 300, 600, 10_000], count: 4, temperature: { min: [1, 1, 1, 1], max: [2, 2, 2, 2], mean: [1.5, 1.5, 1.5, 1.5] } });
    const model = toChartModel(series, 'temperature');
    expect(model.data[0]).toEqual([0, 300, 600, 900, 10_000]);
    expect(model.data[3]).toEqual([1.5, 1.5, 1.5, null, 1.5]);
    expect(model.data[4]).toEqual([-22, -22, -22, -22, -22]);
  });
});

describe('"Nada encontrado." rule', () => {
  it('needs more than one reading', () => {
    expect(hasChartData(makeSeries({ count: 2 }), 'temperature')).toBe(true);
    expect(hasChartData(makeSeries({ count: 1, t: [1709300000] }), 'temperature')).toBe(false);
    expect(hasChartData(makeSeries({ count: 0, t: [] }), 'humidity')).toBe(false);
  });

  it('needs values of the measure shown', () => {
    const noHumidity = makeSeries({ humidity: { min: [null, null, null], max: [null, null, null], mean: [null, null, null] } });
    expect(hasChartData(noHumidity, 'humidity')).toBe(false);
    expect(hasChartData(noHumidity, 'temperature')).toBe(true);
  });
});
