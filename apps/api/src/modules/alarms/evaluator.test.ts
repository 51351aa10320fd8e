import { describe, expect, it } from 'vitest';
import { evaluateAlarms, type DeviceAlarmState } from './evaluator';

const limits = { temperatureMin: 2, temperatureMax: 8, humidityMin: 30, humidityMax: 75 };
const state = (over: Partial<DeviceAlarmState> = {}): DeviceAlarmState => ({ limits, delayMs: 0, active: [], pending: [], ...over });
const r = (minute: number, temperature: number | null, humidity: number | null = 50) => ({ ts: minute * 60_000, temperature, humidity });

describe('evaluateAlarms', () => {
  it('nothing changes while inside the limits', () => {
    expect(evaluateAlarms(state(), [r(0, 5), r(1, 8), r(2, 2)])).toEqual({ updated: [], opened: [], pendingUpserts: [], pendingDeletes: [] });
  });

  it('one alarm per excursion, with the extremes observed', () => {
    const changes = evaluateAlarms(state(), [r(0, 9, 70), r(1, 11, 80), r(2, 10), r(3, 7), r(4, 9.5)]);
    expect(changes.opened).toEqual([
      { type: 'temperature_high', message: 'Temperatura acima do limite máximo (8,00 °C)', startedAt: 0, endedAt: 3 * 60_000, observed: { temperatureMin: 9, temperatureMax: 11, humidityMin: 50, humidityMax: 80 } },
      { type: 'humidity_high', message: 'Umidade acima do limite máximo (75,00 %)', startedAt: 60_000, endedAt: 2 * 60_000, observed: { temperatureMin: 11, temperatureMax: 11, humidityMin: 80, humidityMax: 80 } },
      { type: 'temperature_high', message: 'Temperatura acima do limite máximo (8,00 °C)', startedAt: 4 * 60_000, endedAt: null, observed: { temperatureMin: 9.5, temperatureMax: 9.5, humidityMin: 50, humidityMax: 50 } },
    ]);
  });

  it('continues and closes an alarm already open', () => {
    const active = [{ id: 'a1', type: 'temperature_low' as const, startedAt: 0, observed: { temperatureMin: 1, temperatureMax: 1, humidityMin: null, humidityMax: null } }];
    const changes = evaluateAlarms(state({ active }), [r(5, 0.5, null), r(6, null), r(7, 3)]);
    expect(changes.updated).toEqual([{ id: 'a1', type: 'temperature_low', endedAt: 7 * 60_000, observed: { temperatureMin: 0.5, temperatureMax: 1, humidityMin: null, humidityMax: null } }]);
    expect(changes.opened).toEqual([]);
  });

  it('a delayed excursion waits, then opens from its start', () => {
    const delayed = state({ delayMs: 10 * 60_000 });
    const first = evaluateAlarms(delayed, [r(0, 9), r(5, 9.5)]);
    expect(first.opened).toEqual([]);
    expect(first.pendingUpserts).toEqual([{ type: 'temperature_high', startedAt: 0, lastAt: 5 * 60_000, observed: { temperatureMin: 9, temperatureMax: 9.5, humidityMin: 50, humidityMax: 50 } }]);
    const second = evaluateAlarms({ ...delayed, pending: first.pendingUpserts }, [r(10, 10)]);
    expect(second.opened).toMatchObject([{ type: 'temperature_high', startedAt: 0, endedAt: null, observed: { temperatureMax: 10 } }]);
    expect(second.pendingDeletes).toEqual(['temperature_high']);
    const back = evaluateAlarms({ ...delayed, pending: first.pendingUpserts }, [r(6, 5)]);
    expect(back).toEqual({ updated: [], opened: [], pendingUpserts: [], pendingDeletes: ['temperature_high'] });
  });

  it('a missing limit raises nothing, and any reading ends "no data"', () => {
    const active = [{ id: 'n1', type: 'no_data' as const, startedAt: 0, observed: { temperatureMin: null, temperatureMax: null, humidityMin: null, humidityMax: null } }];
    const changes = evaluateAlarms(state({ limits: { ...limits, temperatureMax: null }, active }), [r(90, 40, null)]);
    expect(changes.opened).toEqual([]);
    expect(changes.updated).toEqual([{ id: 'n1', type: 'no_data', endedAt: 90 * 60_000, observed: active[0]!.observed }]);
  });
});
