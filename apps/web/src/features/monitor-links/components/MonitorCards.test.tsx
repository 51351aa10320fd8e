import type { MonitorDevice } from '@sentinela/contract';
import { act, render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/providers';
import { TestProviders } from '../../../test/render';
import { MonitorCards } from './MonitorCards';

const MIN = 60_000;
const READ_AT = '2026-11-26T12:00:00.000Z';

function makeMonitorDevice(index: number, overrides: Partial<MonitorDevice> = {}): MonitorDevice {
  return {
    _id: `00000000-0000-4000-8000-00000000000${index}`,
    name: `Câmara ${index}`,
    mac: `AA:BB:CC:DD:EE:0${index}`,
    battery: { value: 90 },
    temperature: { value: 4.5 },
    humidity: { value: 60 },
    last_update_date: READ_AT,
    expectedIntervalSeconds: 60,
    config: { temperature: { min: 2, max: 8 }, humidity: { min: null, max: null } },
    travel: null,
    last_position: null,
    alarms: [],
    ...overrides,
  };
}

/** Renders, then re-renders with new devices inside the same providers (a live snapshot). */
function renderCards(devices: MonitorDevice[]) {
  const queryClient = createQueryClient();
  const wrap = (element: ReactElement) => (
    <TestProviders queryClient={queryClient}>
      <MemoryRouter>{element}</MemoryRouter>
    </TestProviders>
  );
  const view = render(wrap(<MonitorCards devices={devices} />));
  return { update: (next: MonitorDevice[]) => view.rerender(wrap(<MonitorCards devices={next} />)) };
}

const cardOf = (mac: string) => screen.getAllByTestId('monitor-card').find((card) => card.dataset.mac === mac)!;

describe('monitor wall cards going quiet (ADR 35)', () => {
  beforeEach(() => {
    // Date and the screen's own re-check (useNow's interval) are faked: the wall stays open, no event arrives.
    vi.useFakeTimers({ now: new Date(Date.parse(READ_AT) + MIN), toFake: ['Date', 'setInterval', 'clearInterval'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('turns a silent device neutral with "Sem dados há X min" by itself, never the colour of its last reading', () => {
    const fresh = makeMonitorDevice(1);
    const hot = makeMonitorDevice(2, { temperature: { value: 12 }, expectedIntervalSeconds: 600 });
    renderCards([fresh, hot]);
    expect(cardOf(fresh.mac).dataset.state).toBe('normal');
    expect(cardOf(hot.mac).dataset.state).toBe('hot');
    expect(screen.queryByTestId('monitor-silence')).toBeNull();

    // Four minutes after the readings: the one-minute device is past its threshold (max(3 × 60 s, 2 min) = 3 min);
    // the ten-minute one is not (30 min).
    act(() => vi.advanceTimersByTime(3 * MIN));
    expect(cardOf(fresh.mac).dataset.state).toBe('silent');
    expect(within(cardOf(fresh.mac)).getByTestId('monitor-silence').textContent).toBe('Sem dados há 4 min');
    expect(within(cardOf(fresh.mac)).getByTestId('monitor-temperature').getAttribute('aria-label')).toBe('Sem dados recentes');
    expect(cardOf(hot.mac).dataset.state).toBe('hot');

    // Past the ten-minute device's threshold too: out of range is no longer claimed.
    act(() => vi.advanceTimersByTime(30 * MIN));
    expect(cardOf(hot.mac).dataset.state).toBe('silent');
    expect(within(cardOf(hot.mac)).getByTestId('monitor-silence').textContent).toBe('Sem dados há 34 min');
  });

  it('takes its colour back with the next reading, and keeps the colour memory across the silence', () => {
    const device = makeMonitorDevice(1, { temperature: { value: 9 } });
    const view = renderCards([device]);
    expect(cardOf(device.mac).dataset.state).toBe('hot');
    act(() => vi.advanceTimersByTime(10 * MIN));
    expect(cardOf(device.mac).dataset.state).toBe('silent');
    // A reading exactly on the maximum keeps the earlier state (hot), as on the travel cards.
    const back = { ...device, temperature: { value: 8 }, last_update_date: new Date(Date.now()).toISOString() };
    view.update([back]);
    expect(cardOf(device.mac).dataset.state).toBe('hot');
    expect(screen.queryByTestId('monitor-silence')).toBeNull();
  });

  it("shows no silence on a finished travel's card, nor for a device that never reported", () => {
    const finished = makeMonitorDevice(1, { travel: { _id: 't-1', code: 'VG-0001', route: 'São Paulo → Campinas', finished: true } });
    const never = makeMonitorDevice(2, { last_update_date: null, temperature: { value: null } });
    renderCards([finished, never]);
    act(() => vi.advanceTimersByTime(3 * 86_400_000));
    expect(screen.queryByTestId('monitor-silence')).toBeNull();
    expect(cardOf(finished.mac).dataset.state).toBe('normal');
    expect(cardOf(never.mac).dataset.state).toBe('none');
  });
});
