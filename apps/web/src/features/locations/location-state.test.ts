import { describe, expect, it } from 'vitest';
import type { PlacedDevice } from '@sentinela/contract';
import { ColourMemory } from '../../components/device-state/colour-state';
import { deviceStates, locationState } from './location-state';
import { mergeLiveStates } from '../../components/device-state/live-merge';

const device = (id: string, temperature: number | null, min: number | null = 2, max: number | null = 8): PlacedDevice => ({
  _id: id,
  name: id,
  mac: 'C3:00:00:00:00:01',
  enterprise_id: 'e',
  location_id: 'l',
  group_id: null,
  temperature,
  humidity: null,
  battery: null,
  lastSyncDate: '2026-11-25T10:00:00.000Z',
  expectedIntervalSeconds: null,
  config: { temperature: { min, max }, humidity: { min: null, max: null } },
});

describe('Locais map states', () => {
  it('colour each device as the travel cards do, keeping the earlier state on a reading equal to a limit', () => {
    const memory = new ColourMemory();
    expect(deviceStates(memory, [device('a', 5), device('b', 9), device('c', 1), device('d', 5, null, null)])).toEqual(
      new Map([['a', 'normal'], ['b', 'hot'], ['c', 'cold'], ['d', 'none']]),
    );
    expect(deviceStates(memory, [device('b', 8)]).get('b')).toBe('hot');
  });

  it('show at a location the most urgent state of its devices', () => {
    expect(locationState([])).toBe('none');
    expect(locationState(['none', 'normal'])).toBe('normal');
    expect(locationState(['normal', 'cold', 'normal'])).toBe('cold');
    expect(locationState(['hot', 'normal'])).toBe('hot');
  });

  it('merge live states: newer values win, missing values are kept, older messages and unknown devices change nothing', () => {
    const list = [device('a', 5)];
    const newer = mergeLiveStates(list, [{ _id: 'a', temperature: 12, humidity: null, battery: 80, lastSyncDate: '2026-11-25T10:01:00.000Z' }]);
    expect(newer?.[0]).toMatchObject({ temperature: 12, battery: 80, lastSyncDate: '2026-11-25T10:01:00.000Z' });
    expect(mergeLiveStates(list, [{ _id: 'a', temperature: 1, humidity: null, battery: null, lastSyncDate: '2026-11-25T09:00:00.000Z' }])).toBe(list);
    expect(mergeLiveStates(list, [{ _id: 'x', temperature: 1, humidity: null, battery: null, lastSyncDate: '2026-11-25T11:00:00.000Z' }])).toBe(list);
  });
});
