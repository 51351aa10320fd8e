// What a person waits for (issue 27, item 9), in Debian's Chromium against a running server with the demo data:
//   1. from pressing "Entrar" on /login to the first device of Meus Dispositivos on screen;
//   2. a cold load of /directions (signed in, empty browser cache) to the first row of its routes table.
// Each is measured in `--runs` fresh browser contexts (cold: no HTTP cache, no compiled code) and the median is the
// figure. For the median run of each, where the time went: the requests after the start (the sign-in, the
// screen's JavaScript and CSS, its API calls), each with its start and end relative to the start, so that requests
// made one after another show as a staircase.
//   npx tsx bench/ux.ts --url http://127.0.0.1:3000 [--runs 5] [--user aurora.adm]
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from 'playwright-core';

const { values: args } = parseArgs({
  options: {
    url: { type: 'string' },
    runs: { type: 'string', default: '5' },
    user: { type: 'string', default: 'aurora.adm' },
    password: { type: 'string', default: 'Sentinela@2026' },
    chromium: { type: 'string', default: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' },
  },
});
if (!args.url) throw new Error('--url is required');
const baseURL = args.url;
const runs = Number(args.runs);

const FLAGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync', '--lang=pt-BR',
];
const FIRST_DEVICE = 'tbody tr, [data-testid="device-row-card"]';
const FIRST_ROUTE = 'tbody tr';

interface Request {
  url: string;
  kind: 'api' | 'js' | 'css' | 'other';
  startMs: number;
  endMs: number;
  bytes: number;
}
interface Run {
  ms: number;
  requests: Request[];
}

/**
 * Installed before the app's scripts: notes (in wall-clock ms, which survives a same-document navigation) when the
 * Entrar button is pressed and when the first element matching `selector` is in the document.
 */
function markers(selector: string) {
  return `(() => {
    const w = window;
    w.__ux = { clickAt: null, firstAt: null };
    document.addEventListener('click', (e) => {
      const button = e.target instanceof Element ? e.target.closest('button[type="submit"]') : null;
      if (button && w.__ux.clickAt === null) w.__ux.clickAt = performance.timeOrigin + performance.now();
    }, true);
    new MutationObserver((_, observer) => {
      if (w.__ux.firstAt === null && document.querySelector(${JSON.stringify(selector)})) {
        w.__ux.firstAt = performance.timeOrigin + performance.now();
        observer.disconnect();
      }
    }).observe(document, { childList: true, subtree: true });
  })();`;
}

function kindOf(url: string): Request['kind'] {
  const { pathname } = new URL(url);
  if (pathname.startsWith('/api/')) return 'api';
  if (pathname.endsWith('.js')) return 'js';
  if (pathname.endsWith('.css')) return 'css';
  return 'other';
}

/** The requests that started at or after `fromMs` (wall clock), from the page's own resource timings. */
async function requestsSince(page: Page, fromMs: number): Promise<Request[]> {
  const entries = await page.evaluate(() =>
    performance.getEntriesByType('resource').map((e) => {
      const r = e as unknown as { name: string; startTime: number; responseEnd: number; encodedBodySize: number };
      return { url: r.name, start: performance.timeOrigin + r.startTime, end: performance.timeOrigin + r.responseEnd, bytes: r.encodedBodySize };
    }),
  );
  return entries
    .filter((e) => e.start >= fromMs - 1)
    .map((e) => ({ url: e.url, kind: kindOf(e.url), startMs: Math.round(e.start - fromMs), endMs: Math.round(e.end - fromMs), bytes: e.bytes }))
    .sort((a, b) => a.startMs - b.startMs);
}

async function signInToFirstDevice(browser: Browser): Promise<Run> {
  const context = await browser.newContext({ baseURL, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1366, height: 800 } });
  try {
    const page = await context.newPage();
    await page.addInitScript(markers(FIRST_DEVICE));
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByLabel('Usuário').fill(args.user!);
    await page.getByLabel('Senha', { exact: true }).fill(args.password!);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.locator(FIRST_DEVICE).first().waitFor({ timeout: 60_000 });
    const { clickAt, firstAt } = await page.evaluate(() => (globalThis as unknown as { __ux: { clickAt: number; firstAt: number } }).__ux);
    await settled(page);
    return { ms: Math.round(firstAt - clickAt), requests: await requestsSince(page, clickAt) };
  } finally {
    await context.close();
  }
}

/** The session keys a signed-in tab holds (P2), taken from a sign-in in a throwaway context. */
async function sessionOf(browser: Browser): Promise<Record<string, string>> {
  const context = await browser.newContext({ baseURL });
  try {
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByLabel('Usuário').fill(args.user!);
    await page.getByLabel('Senha', { exact: true }).fill(args.password!);
    await page.getByRole('button', { name: 'Entrar' }).click();
    await page.waitForURL('**/my-devices');
    return await page.evaluate(() => {
      const storage = globalThis.sessionStorage;
      return Object.fromEntries(Object.keys(storage).map((k) => [k, storage.getItem(k) ?? '']));
    });
  } finally {
    await context.close();
  }
}

/**
 * Waits for the requests that follow the first row, to list them: until the network is idle, or 5 s. A screen that
 * keeps a long-polling request open (Socket.IO before its upgrade) or refreshes a list is never "idle"; the time
 * measured (the first row) is taken before this wait either way.
 */
async function settled(page: Page): Promise<void> {
  await page.waitForLoadState('networkidle', { timeout: 5_000 }).catch(() => undefined);
}

async function coldDirections(browser: Browser, session: Record<string, string>): Promise<Run> {
  const context = await browser.newContext({ baseURL, locale: 'pt-BR', timezoneId: 'America/Sao_Paulo', viewport: { width: 1366, height: 800 } });
  try {
    const page = await context.newPage();
    // The sliding window's end, moved to now + 5 minutes, as a tab that was just used.
    const stored = { ...session, login_time: String(Date.now() + 5 * 60_000) };
    await page.addInitScript((entries) => {
      for (const [k, v] of Object.entries(entries)) globalThis.sessionStorage.setItem(k, v);
    }, stored);
    await page.addInitScript(markers(FIRST_ROUTE));
    await page.goto('/directions#routes');
    await page.locator(FIRST_ROUTE).first().waitFor({ timeout: 60_000 });
    const { firstAt, origin } = await page.evaluate(() => ({ firstAt: (globalThis as unknown as { __ux: { firstAt: number } }).__ux.firstAt, origin: performance.timeOrigin }));
    await settled(page);
    return { ms: Math.round(firstAt - origin), requests: await requestsSince(page, origin) };
  } finally {
    await context.close();
  }
}

function median(list: Run[]): Run {
  return [...list].sort((a, b) => a.ms - b.ms)[Math.floor(list.length / 2)]!;
}

function waterfall(run: Run): string {
  const rows = run.requests.map((r) => {
    const { pathname } = new URL(r.url);
    const name = pathname.length > 60 ? `…${pathname.slice(-59)}` : pathname;
    return `| ${r.kind} | ${name} | ${r.startMs} | ${r.endMs} | ${(r.bytes / 1024).toFixed(1)} |`;
  });
  return ['| Tipo | Caminho | Início (ms) | Fim (ms) | kB |', '|---|---|---|---|---|', ...rows].join('\n');
}

/** How the median run's time splits: the sign-in call, the JavaScript and CSS, the API calls, and what is left. */
function breakdown(run: Run) {
  const span = (kind: Request['kind'] | 'code') => {
    const list = run.requests.filter((r) => (kind === 'code' ? r.kind === 'js' || r.kind === 'css' : r.kind === kind) && r.startMs <= run.ms);
    return list.length === 0 ? null : { count: list.length, firstStart: Math.min(...list.map((r) => r.startMs)), lastEnd: Math.max(...list.map((r) => r.endMs)), kB: Number((list.reduce((n, r) => n + r.bytes, 0) / 1024).toFixed(1)) };
  };
  const signIn = run.requests.find((r) => r.url.includes('/api/authenticate'));
  // API calls that started only after an earlier one ended: the chain a screen waits through.
  const api = run.requests.filter((r) => r.kind === 'api' && r.startMs <= run.ms);
  let inSeries = 0;
  for (let i = 1; i < api.length; i++) if (api[i]!.startMs >= api[i - 1]!.endMs) inSeries++;
  return { signInMs: signIn ? signIn.endMs - signIn.startMs : null, code: span('code'), api: span('api'), apiCallsInSeries: inSeries };
}

const browser = await chromium.launch({ executablePath: args.chromium, args: FLAGS });
const loadBefore = Number((loadavg()[0] ?? 0).toFixed(2));
try {
  // One warm-up of each, so the server's own first-request costs (route compilation, caches) are not counted.
  await signInToFirstDevice(browser);
  const session = await sessionOf(browser);
  await coldDirections(browser, session);

  const login: Run[] = [];
  const directions: Run[] = [];
  for (let i = 0; i < runs; i++) {
    login.push(await signInToFirstDevice(browser));
    directions.push(await coldDirections(browser, session));
  }
  const loadAfter = Number((loadavg()[0] ?? 0).toFixed(2));
  const results = {
    date: new Date().toISOString(),
    machine: { cores: cpus().length, model: cpus()[0]?.model ?? 'unknown' },
    loadAverage: [loadBefore, loadAfter],
    runs,
    login: { medianMs: median(login).ms, all: login.map((r) => r.ms), breakdown: breakdown(median(login)), requests: median(login).requests },
    directions: { medianMs: median(directions).ms, all: directions.map((r) => r.ms), breakdown: breakdown(median(directions)), requests: median(directions).requests },
  };
  const outDir = path.resolve(import.meta.dirname, '../.tmp/bench');
  mkdirSync(outDir, { recursive: true });
  writeFileSync(path.join(outDir, 'ux.json'), JSON.stringify(results, null, 2));

  const ok = (ms: number) => (ms <= 500 ? 'ok' : 'ACIMA DA META');
  const describe = (b: ReturnType<typeof breakdown>) =>
    [
      b.signInMs === null ? null : `entrar (POST /api/authenticate) ${b.signInMs} ms`,
      b.code ? `${b.code.count} arquivos JS/CSS (${b.code.kB} kB) de ${b.code.firstStart} a ${b.code.lastEnd} ms` : null,
      b.api ? `${b.api.count} chamadas à API de ${b.api.firstStart} a ${b.api.lastEnd} ms, ${b.apiCallsInSeries} em série` : null,
    ].filter(Boolean).join('; ');
  console.log(`
| Medida (mediana de ${runs} contextos frios, Chromium) | Resultado | Todas | Meta |
|---|---|---|---|
| "Entrar" → primeiro dispositivo de Meus Dispositivos | ${results.login.medianMs} ms (${ok(results.login.medianMs)}) | ${results.login.all.join(', ')} | ≤ 500 ms |
| /directions a frio → primeira linha das rotas | ${results.directions.medianMs} ms (${ok(results.directions.medianMs)}) | ${results.directions.all.join(', ')} | ≤ 500 ms |
| Carga da máquina (load average 1 min, início → fim) | ${loadBefore} → ${loadAfter} | — | — |

Onde o tempo vai (execução mediana):
- Entrar: ${describe(results.login.breakdown)}
- /directions: ${describe(results.directions.breakdown)}

Entrar → Meus Dispositivos, pedidos da execução mediana:
${waterfall(median(login))}

/directions a frio, pedidos da execução mediana:
${waterfall(median(directions))}

Resultados em .tmp/bench/ux.json.`);
} finally {
  await browser.close();
}
