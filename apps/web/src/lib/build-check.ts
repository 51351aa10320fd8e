/**
 * Build-version check on start (P1): when the server holds a newer build than the one running,
 * drop every Cache Storage entry and reload so the new bundle is used.
 */
const RELOADED_FOR_KEY = 'build_reloaded_for';

export type BuildCheckResult = 'current' | 'reloading';

export interface BuildCheckDeps {
  bundledBuildDate: number;
  fetch: typeof fetch;
  caches: CacheStorage | undefined;
  reload: () => void;
  storage: Storage;
  now: () => number;
}

const defaults = (): BuildCheckDeps => ({
  bundledBuildDate: __BUILD_DATE__,
  fetch: (...args) => fetch(...args),
  caches: typeof caches === 'undefined' ? undefined : caches,
  reload: () => location.reload(),
  storage: sessionStorage,
  now: () => Date.now(),
});

async function servedBuildDate(deps: BuildCheckDeps): Promise<number | null> {
  try {
    const response = await deps.fetch(`/build.json?t=${deps.now()}`, { cache: 'no-store' });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    const date = body && typeof body === 'object' && 'buildDate' in body ? Number(body.buildDate) : NaN;
    return Number.isFinite(date) ? date : null;
  } catch {
    // Offline or no metadata: run the build we have.
    return null;
  }
}

export async function checkBuild(overrides: Partial<BuildCheckDeps> = {}): Promise<BuildCheckResult> {
  const deps = { ...defaults(), ...overrides };
  const served = await servedBuildDate(deps);
  if (served === null || served <= deps.bundledBuildDate) return 'current';

  // Reload once per served build: if a stale copy comes back anyway, render it rather than loop.
  if (deps.storage.getItem(RELOADED_FOR_KEY) === String(served)) return 'current';
  deps.storage.setItem(RELOADED_FOR_KEY, String(served));

  if (deps.caches) {
    const keys = await deps.caches.keys();
    await Promise.all(keys.map((key) => deps.caches?.delete(key)));
  }
  deps.reload();
  return 'reloading';
}
