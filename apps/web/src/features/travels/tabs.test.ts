import { describe, expect, it } from 'vitest';
import { disabledTabs, effectiveTab, searchWithSelection, selectionFromSearch, tabFromHash } from './tabs';

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

  it('the chosen travel and device come from the query; malformed ones are no choice', () => {
    const id = '9b0c6a52-0000-4000-8000-000000000001';
    expect(selectionFromSearch(`?travel=${id}&device=c3:00:00:00:01:01`)).toEqual({ travelId: id, deviceMac: 'C3:00:00:00:01:01' });
    expect(selectionFromSearch('')).toEqual({ travelId: null, deviceMac: null });
    expect(selectionFromSearch('?travel=1%27%20or%201=1')).toEqual({ travelId: null, deviceMac: null });
    // A device without its travel means nothing.
    expect(selectionFromSearch('?device=C3:00:00:00:01:01')).toEqual({ travelId: null, deviceMac: null });
    expect(selectionFromSearch(`?travel=${id}&device=nada`)).toEqual({ travelId: id, deviceMac: null });
  });

  it('writes the selection into the query, keeping other parameters', () => {
    const id = '9b0c6a52-0000-4000-8000-000000000001';
    expect(searchWithSelection('?x=1&device=AA:AA:AA:AA:AA:AA', { travelId: id, deviceMac: null })).toBe(`?x=1&travel=${id}`);
    expect(searchWithSelection('', { travelId: id, deviceMac: 'C3:00:00:00:01:01' })).toBe(`?travel=${id}&device=C3:00:00:00:01:01`);
    expect(searchWithSelection(`?travel=${id}`, { travelId: null, deviceMac: null })).toBe('');
  });
});
