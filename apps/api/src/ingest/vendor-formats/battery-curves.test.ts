import { describe, expect, it } from 'vitest';
import { batteryMillivolts, batteryPercent } from './battery-curves';

describe('battery curves', () => {
  it('RuuviTag (CR2477): 3.0 V and above is full, 2.5 V and below empty, the knee in between', () => {
    expect(batteryPercent('ruuvitag', 3200)).toBe(100);
    expect(batteryPercent('ruuvitag', 3000)).toBe(100);
    expect(batteryPercent('ruuvitag', 2977)).toBe(95);
    expect(batteryPercent('ruuvitag', 2850)).toBe(65);
    expect(batteryPercent('ruuvitag', 2500)).toBe(0);
    expect(batteryPercent('ruuvitag', 1600)).toBe(0);
  });

  it('Xiaomi on pvvx firmware (CR2032): the firmware line, 2.2 V = 0 %, 3.0 V = 100 %', () => {
    expect(batteryPercent('xiaomi-thermometer', 2200)).toBe(0);
    expect(batteryPercent('xiaomi-thermometer', 2600)).toBe(50);
    expect(batteryPercent('xiaomi-thermometer', 2807)).toBe(76);
    expect(batteryPercent('xiaomi-thermometer', 3064)).toBe(100);
  });

  it('is absent without a voltage or with one no coin cell shows (RAWv1 "maximum" 65.535 V, a TLM 5 V)', () => {
    expect(batteryPercent('ruuvitag', null)).toBeNull();
    expect(batteryPercent('ruuvitag', 65535)).toBeNull();
    expect(batteryPercent('eddystone-beacon', 5000)).toBeNull();
    expect(batteryPercent('eddystone-beacon', 1000)).toBeNull();
    expect(batteryPercent('eddystone-beacon', Number.NaN)).toBeNull();
  });

  it('gives back a voltage for each percentage that the curve turns into that percentage again', () => {
    for (const sensor of ['ruuvitag', 'xiaomi-thermometer', 'eddystone-beacon'] as const) {
      for (let pct = 0; pct <= 100; pct++) expect(batteryPercent(sensor, batteryMillivolts(sensor, pct))).toBe(pct);
    }
    expect(batteryMillivolts('ruuvitag', 150)).toBe(3000);
  });
});
