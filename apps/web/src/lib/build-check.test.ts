import { describe, expect, it, vi } from 'vitest';
import { checkBuild, type BuildCheckDeps } from './build-check';

function deps(served: Response | Error, overrides: Partial<BuildCheckDeps> = {}) {
  const cacheKeys = ['workbox-precache', 'assets'];
  const caches = {
    keys: vi.fn(async () => cacheKeys),
    delete: vi.fn(async () => true),
  } as unknown as CacheStorage;
  const fetchMock = vi.fn(async () => {
    if (served instanceof Error) throw served;
    return served;
  });
  return {
    bundledBuildDate: 1000,
    fetch: fetchMock as unknown as typeof fetch,
    caches,
    reload: vi.fn(),
    storage: sessionStorage,
    now: () => 42,
    ...overrides,
  } satisfies BuildCheckDeps;
}

const buildJson = (buildDate: number) => new Response(JSON.stringify({ buildDate }), { status: 200 });

describe('checkBuild (P1)', () => {
  it('renders when the served build is the bundled one', async () => {
    const d = deps(buildJson(1000));
    await expect(checkBuild(d)).resolves.toBe('current');
    expect(d.fetch).toHaveBeenCalledWith('/build.json?t=42', { cache: 'no-store' });
    expect(d.reload).not.toHaveBeenCalled();
  });

  it('clears every cache and reloads when the served build is newer', async () => {
    const d = deps(buildJson(2000));
    await expect(checkBuild(d)).resolves.toBe('reloading');
    expect(d.caches.delete).toHaveBeenCalledWith('workbox-precache');
    expect(d.caches.delete).toHaveBeenCalledWith('assets');
    expect(d.reload).toHaveBeenCalledTimes(1);
  });

  it('reloads only once for the same served build', async () => {
    await checkBuild(deps(buildJson(2000)));
    const again = deps(buildJson(2000));
    await expect(checkBuild(again)).resolves.toBe('current');
    expect(again.reload).not.toHaveBeenCalled();
  });

  it('renders anyway when the metadata cannot be read', async () => {
    await expect(checkBuild(deps(new TypeError('offline')))).resolves.toBe('current');
    await expect(checkBuild(deps(new Response('<html>', { status: 200 })))).resolves.toBe('current');
    await expect(checkBuild(deps(new Response('', { status: 404 })))).resolves.toBe('current');
  });
});
