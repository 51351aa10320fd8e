import { MSG } from '@sentinela/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeTravel } from '../features/travels/test-fixtures';
import { startSession } from '../lib/session';
import { errorResponse, jsonResponse, mockFetch, SHELL_REQUESTS } from '../test/fetch';
import { makeDevice, makeSession, makeUser } from '../test/fixtures';
import { renderApp } from '../test/render';

// Issue 27 target 9 (ADR 0086): a screen's first requests start when its route is entered, beside its code, and the
// screen reads those answers instead of asking again.

// Leaflet is covered in Chromium (e2e); here the map is a stub.
vi.mock('../features/travels/components/TravelMap', () => ({ default: () => <div data-testid="travel-map" /> }));

const TRAVEL_LIST = '/api/travels?paginate=false';
const count = (requests: readonly { url: string }[], url: string) => requests.filter((request) => request.url === url).length;

describe('route prefetch', () => {
  it('/directions asks for the travel list and the standing before its screen has rendered, and the table reuses the answer', async () => {
    startSession(makeSession(2));
    const travel = makeTravel();
    const { requests } = mockFetch(({ url }) => {
      if (url === TRAVEL_LIST) return jsonResponse({ data: { data: [travel], total: 1, page: 1, limit: 1 } });
      return errorResponse(404, MSG.routeNotFound);
    });
    renderApp('/directions');

    // The render that entered the route asked; the screen's chunk (a dynamic import) cannot have loaded yet.
    expect(screen.queryByRole('heading', { name: 'Viagens' })).toBeNull();
    expect(requests.map((request) => request.url)).toEqual(expect.arrayContaining([TRAVEL_LIST, SHELL_REQUESTS.standing]));

    expect(await screen.findByText(travel.destiny.address)).toBeTruthy();
    expect(count(requests, TRAVEL_LIST)).toBe(1);
    expect(count(requests, SHELL_REQUESTS.standing)).toBe(1);
  });

  it('asks nothing for a visitor, who is sent to /login', async () => {
    const { requests } = mockFetch(() => errorResponse(404, MSG.routeNotFound));
    const { router } = renderApp('/directions');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(await screen.findByLabelText('Usuário')).toBeTruthy();
    expect(requests).toEqual([]);
  });

  it('sign-in asks for the device list beside the enterprise, not after it', async () => {
    const user = makeUser(3);
    let listAsked!: () => void;
    const listSeen = new Promise<void>((resolve) => (listAsked = resolve));
    const { requests } = mockFetch(async ({ url, headers }) => {
      if (url === '/api/authenticate') return jsonResponse({ token: { token: 'jwt-abc', expires_at: '2030-01-01T00:00:00.000Z' }, user });
      // The enterprise answers only once the device list has been asked for: in series, sign-in would never end.
      if (url === `/api/user-client-id/${user._id}`) {
        await listSeen;
        return jsonResponse({ _id: 'ent-9', name: 'Farmácia Central' });
      }
      if (url === `/api/devices-by-user/${user._id}`) {
        expect(headers.authorization).toBe('Bearer jwt-abc');
        listAsked();
        return jsonResponse([makeDevice(1)]);
      }
      return errorResponse(404, MSG.routeNotFound);
    });
    const { router } = renderApp('/login');

    await userEvent.type(await screen.findByLabelText('Usuário'), 'maria');
    await userEvent.type(screen.getByLabelText('Senha'), 'Senha@123');
    await userEvent.click(screen.getByRole('button', { name: 'Entrar' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/my-devices'));
    expect((await screen.findAllByText('Sensor 01')).length).toBeGreaterThan(0);
    // The list the screen shows is the one asked for at sign-in: not asked again.
    expect(count(requests, `/api/devices-by-user/${user._id}`)).toBe(1);
  });
});
