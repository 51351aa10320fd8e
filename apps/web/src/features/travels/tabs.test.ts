import { describe, expect, it } from 'vitest';
import { disabledTabs, effectiveTab, tabFromHash } from './tabs';

describe('/directions hash tabs (spec 001 §2)', () => {
  it('opens on #routes; unknown hashes are the list', () => {
    expect(tabFromHash('')).toBe('routes');
    expect(tabFromHash('#devices')).toBe('devices');
    expect(tabFromHash('#history')).toBe('history');
    expect(tabFromHash('#nada')).toBe('routes');
  });

  it('devices and history are disabled until a travel and a device are chosen', () => {
    expect(disabledTabs('routes', { travel: false, device: false })).toEqual({ routes: false, devices: true, history: true });
    expect(disabledTabs('routes', { travel: true, device: false })).toEqual({ routes: false, devices: false, history: true });
    expect(disabledTabs('routes', { travel: true, device: true })).toEqual({ routes: false, devices: false, history: false });
  });

  it('the routes tab is disabled while on devices or history', () => {
    expect(disabledTabs('devices', { travel: true, device: false }).routes).toBe(true);
    expect(disabledTabs('history', { travel: true, device: true }).routes).toBe(true);
  });

  it('a tab without its choice (a reload on #devices) falls back', () => {
    expect(effectiveTab('devices', { travel: false, device: false })).toBe('routes');
    expect(effectiveTab('history', { travel: true, device: false })).toBe('devices');
    expect(effectiveTab('history', { travel: false, device: false })).toBe('routes');
    expect(effectiveTab('history', { travel: true, device: true })).toBe('history');
  });
});
