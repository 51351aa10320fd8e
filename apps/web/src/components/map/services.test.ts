import { describe, expect, it, vi } from 'vitest';
import { buildTimeMapServices, DEFAULT_TILE_URL, mergeMapServices } from './config';
import { fetchPlannedRoute, type PlannedRoute } from './routing';

describe('map services (T7): build-time defaults, run-time /config.json', () => {
  it('defaults to OpenStreetMap tiles and no routing server', () => {
    const services = buildTimeMapServices({});
    expect(services.tileUrl).toBe(DEFAULT_TILE_URL);
    expect(services.tileAttribution).toContain('OpenStreetMap');
    expect(services.routingUrl).toBeNull();
  });

  it('reads VITE_TILE_URL and VITE_ROUTING_URL', () => {
    const services = buildTimeMapServices({ VITE_TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png', VITE_ROUTING_URL: 'https://osrm.example' });
    expect(services).toMatchObject({ tileUrl: 'https://tiles.example/{z}/{x}/{y}.png', routingUrl: 'https://osrm.example' });
  });

  it('the run-time file overrides the build; `routingUrl: null` turns routing off; junk is ignored', () => {
    const base = buildTimeMapServices({ VITE_ROUTING_URL: 'https://osrm.example' });
    expect(mergeMapServices(base, { tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png', tileAttribution: 'Teste' })).toEqual({
      tileUrl: 'http://127.0.0.1:9/{z}/{x}/{y}.png',
      tileAttribution: 'Teste',
      routingUrl: 'https://osrm.example',
    });
    expect(mergeMapServices(base, { routingUrl: null }).routingUrl).toBeNull();
    expect(mergeMapServices(base, undefined)).toEqual(base);
    expect(mergeMapServices(base, '<!doctype html>')).toEqual(base);
    expect(mergeMapServices(base, { tileUrl: 42 })).toEqual(base);
  });
});

describe('planned route from an OSRM-compatible server (T7)', () => {
  const origin: [number, number] = [-23.5, -46.6];
  const destiny: [number, number] = [-22.9, -43.2];

  it('asks /route/v1/driving/{lng},{lat};{lng},{lat} with full GeoJSON geometry, and turns [lng, lat] into [lat, lng]', async () => {
    const fetchMock = vi.fn(async (_url: string) =>
      new Response(JSON.stringify({ code: 'Ok', routes: [{ distance: 430_000, geometry: { coordinates: [[-46.6, -23.5], [-45, -23], [-43.2, -22.9]] } }] })),
    );
    vi.stubGlobal('fetch', fetchMock);
    const route = await fetchPlannedRoute('https://osrm.example/', origin, destiny);
    expect(fetchMock.mock.calls[0]![0]).toBe('https://osrm.example/route/v1/driving/-46.6,-23.5;-43.2,-22.9?overview=full&geometries=geojson');
    expect(route).toEqual<PlannedRoute>({ kind: 'road', points: [[-23.5, -46.6], [-23, -45], [-22.9, -43.2]], distanceKm: 430 });
  });

  it('without a server, or when it does not answer, draws the straight line ("approximate")', async () => {
    expect(await fetchPlannedRoute(null, origin, destiny)).toEqual({ kind: 'approximate', points: [origin, destiny] });
    vi.stubGlobal('fetch', vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))));
    expect((await fetchPlannedRoute('https://osrm.example', origin, destiny)).kind).toBe('approximate');
    vi.stubGlobal('fetch', vi.fn(async () => new Response('bad gateway', { status: 502 })));
    expect((await fetchPlannedRoute('https://osrm.example', origin, destiny)).kind).toBe('approximate');
  });

  it('when the server answers that it cannot route, "failed" (Não foi possível traçar esse trajeto)', async () => {
    vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify({ code: 'NoRoute', message: 'Impossible route' }), { status: 400 })));
    expect(await fetchPlannedRoute('https://osrm.example', origin, destiny)).toEqual({ kind: 'failed', points: [origin, destiny] });
  });
});
