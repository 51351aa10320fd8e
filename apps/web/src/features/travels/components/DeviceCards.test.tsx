import { render, screen, within } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { createQueryClient } from '../../../app/providers';
import { renderWithProviders, TestProviders } from '../../../test/render';
import { ColourMemory } from '../../../components/device-state/colour-state';
import { makeTravelDevice, TRAVEL_ID } from '../test-fixtures';
import { DeviceCards } from './DeviceCards';

const card = () => screen.getByTestId('device-card');

/** Renders, then re-renders with new props inside the same providers (a live update). */
function renderLive(ui: ReactElement) {
  const queryClient = createQueryClient();
  const wrap = (element: ReactElement) => (
    <TestProviders queryClient={queryClient}>
      <MemoryRouter>{element}</MemoryRouter>
    </TestProviders>
  );
  const view = render(wrap(ui));
  return { update: (next: ReactElement) => view.rerender(wrap(next)) };
}

describe('device cards (T2)', () => {
  // The fixtures' readings are of 01/03/2024 15:30:45 UTC: a minute later, so no card is silent (ADR 35). Only Date
  // is faked; timers stay real for Testing Library.
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2024-03-01T15:31:45Z'), toFake: ['Date'] });
  });

  it('shows name, battery, temperature, humidity with 2 decimals and the last update in local time', () => {
    renderWithProviders(<DeviceCards travelId={TRAVEL_ID} devices={[makeTravelDevice()]} memory={new ColourMemory()} />);
    const view = within(card());
    expect(view.getByText('Baú Caminhão 01')).toBeTruthy();
    expect(view.getByTestId('card-temperature').textContent).toContain('4,50 °C');
    expect(view.getByTestId('card-humidity').textContent).toContain('55,12 %');
    expect(view.getByTestId('card-battery').textContent).toContain('85%');
    // 15:30:45 UTC is 12:30:45 in São Paulo; H without a leading zero.
    expect(view.getByTestId('card-updated').textContent).toBe('Última atualização: 01/03/2024 12:30:45');
    expect(card().dataset.state).toBe('normal');
  });

  it.each([
    [15, 'low'],
    [50, 'half'],
    [80, 'high'],
    [95, 'high'],
    [100, 'full'],
  ] as const)('battery at %s per cent shows the %s icon', (value, level) => {
    renderWithProviders(
      <DeviceCards travelId={TRAVEL_ID} devices={[makeTravelDevice({ battery: { value } })]} memory={new ColourMemory()} />,
    );
    expect(screen.getByTestId('card-battery').dataset.level).toBe(level);
  });

  it('keeps the earlier colour state when a live reading equals a limit', () => {
    const memory = new ColourMemory();
    const devices = (value: number) => [makeTravelDevice({ temperature: { value } })];
    const view = renderLive(<DeviceCards travelId={TRAVEL_ID} devices={devices(9.2)} memory={memory} />);
    expect(card().dataset.state).toBe('hot');

    // Live update: exactly the maximum (8) → still hot.
    view.update(<DeviceCards travelId={TRAVEL_ID} devices={devices(8)} memory={memory} />);
    expect(card().dataset.state).toBe('hot');
    expect(within(card()).getByTestId('card-temperature').textContent).toContain('8,00 °C');

    view.update(<DeviceCards travelId={TRAVEL_ID} devices={devices(-0.5)} memory={memory} />);
    expect(card().dataset.state).toBe('cold');
    view.update(<DeviceCards travelId={TRAVEL_ID} devices={devices(0)} memory={memory} />);
    expect(card().dataset.state).toBe('cold');
    view.update(<DeviceCards travelId={TRAVEL_ID} devices={devices(3)} memory={memory} />);
    expect(card().dataset.state).toBe('normal');
  });

  it('has no colour without limits', () => {
    const device = makeTravelDevice({ config: { temperature: { min: null, max: null }, humidity: { min: null, max: null } } });
    renderWithProviders(<DeviceCards travelId={TRAVEL_ID} devices={[device]} memory={new ColourMemory()} />);
    expect(card().dataset.state).toBe('none');
    expect(within(card()).getByText(/sem limites/)).toBeTruthy();
  });

  it('offers only the menu entries it is given (no Configurações on /localizator)', async () => {
    const { default: userEvent } = await import('@testing-library/user-event');
    renderWithProviders(
      <DeviceCards travelId={TRAVEL_ID} devices={[makeTravelDevice()]} memory={new ColourMemory()} onCharts={() => {}} onHistory={() => {}} />,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Ações de Baú Caminhão 01' }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['Gráficos', 'Histórico']);
  });

  it('a card without actions has no menu', () => {
    renderWithProviders(<DeviceCards travelId={TRAVEL_ID} devices={[makeTravelDevice()]} memory={new ColourMemory()} />);
    expect(screen.queryByRole('button', { name: /Ações de/ })).toBeNull();
  });
});
