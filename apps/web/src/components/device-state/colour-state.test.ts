import { describe, expect, it } from 'vitest';
import { ColourMemory, nextColourState, type ColourState } from './colour-state';

const limits = { min: 2, max: 8 };

describe('device card colour state (spec 001 §4)', () => {
  it('is none without limits, whatever the reading', () => {
    expect(nextColourState('hot', 30, { min: null, max: null })).toBe('none');
    expect(nextColourState('none', null, { min: null, max: null })).toBe('none');
  });

  it('is hot above the maximum, cold below the minimum, normal strictly between', () => {
    expect(nextColourState('none', 8.01, limits)).toBe('hot');
    expect(nextColourState('none', 1.99, limits)).toBe('cold');
    expect(nextColourState('none', 5, limits)).toBe('normal');
    expect(nextColourState('hot', 2.01, limits)).toBe('normal');
  });

  it('a reading equal to a limit keeps the earlier state', () => {
    const earlier: ColourState[] = ['none', 'hot', 'cold', 'normal'];
    for (const state of earlier) {
      expect(nextColourState(state, 8, limits)).toBe(state);
      expect(nextColourState(state, 2, limits)).toBe(state);
    }
  });

  it('one limit alone decides on its side', () => {
    expect(nextColourState('none', -10, { min: null, max: -18 })).toBe('hot');
    expect(nextColourState('none', -20, { min: null, max: -18 })).toBe('normal');
    expect(nextColourState('normal', -18, { min: null, max: -18 })).toBe('normal');
    expect(nextColourState('none', 1, { min: 2, max: null })).toBe('cold');
  });

  it('a missing reading keeps the earlier state', () => {
    expect(nextColourState('hot', null, limits)).toBe('hot');
  });
});

describe('ColourMemory: the earlier state across live updates', () => {
  const device = (value: number | null, mac = 'AA') => ({
    mac,
    temperature: { value },
    config: { temperature: limits, humidity: { min: null, max: null } },
  });

  it('keeps hot through a reading equal to the maximum, then turns normal inside the limits', () => {
    const memory = new ColourMemory();
    expect(memory.resolve('t1', device(9))).toBe('hot');
    expect(memory.resolve('t1', device(8))).toBe('hot');
    expect(memory.resolve('t1', device(8))).toBe('hot');
    expect(memory.resolve('t1', device(7.5))).toBe('normal');
    expect(memory.resolve('t1', device(8))).toBe('normal');
    expect(memory.resolve('t1', device(2))).toBe('normal');
    expect(memory.resolve('t1', device(1))).toBe('cold');
    expect(memory.resolve('t1', device(2))).toBe('cold');
  });

  it('starts from none: a first reading equal to a limit gives no state', () => {
    expect(new ColourMemory().resolve('t1', device(8))).toBe('none');
  });

  it('keeps one state per travel and device', () => {
    const memory = new ColourMemory();
    memory.resolve('t1', device(9, 'AA'));
    memory.resolve('t1', device(1, 'BB'));
    expect(memory.resolve('t1', device(8, 'AA'))).toBe('hot');
    expect(memory.resolve('t1', device(2, 'BB'))).toBe('cold');
    expect(memory.resolve('t2', device(8, 'AA'))).toBe('none');
  });
});
