// `npm test`: the whole suite on a fresh machine. The requirement-to-test check, typecheck, lint, the API suite on a real PostgreSQL
// (started here from the machine's binaries) and again on the embedded PGlite, the web component tests,
// and the end-to-end tests in Debian's Chromium. Ends with one line: "N passed, N failed".
//
// Vitest runs one worker per suite on a 2-core machine (cores - 1), so the suites run in two lanes side by side, each
// suite's output printed whole when it ends. The end-to-end tests start when the first lane ends (ADR 85), two files
// at a time, each worker with its own server, database and fakes (ADR 50): the server, the database and Chromium
// share the cores and their waits are what they test.
import { mkdirSync, readFileSync, rmSync, existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startPostgres } from './lib/postgres.mjs';
import { ensureChromium } from './lib/chromium.mjs';
import { run } from './lib/run.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const resultsDir = path.join(root, '.tmp/test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const summary = [];
const failures = [];
let failedSteps = 0;

// The failed tests with the start of their messages, printed again after the summary: CI keeps only the end
// of the output, and a failure scrolled away among 1,500 passing tests is a failure nobody can fix.
function failuresOf(suite, json) {
  const found = [];
  for (const file of json.testResults ?? []) {
    const relative = path.relative(root, file.name);
    if (file.status === 'failed' && (file.assertionResults ?? []).every((t) => t.status !== 'failed')) {
      found.push(`${suite} › ${relative}\n    ${String(file.message ?? '').split('\n').slice(0, 6).join('\n    ')}`);
    }
    for (const test of file.assertionResults ?? []) {
      if (test.status !== 'failed') continue;
      const message = (test.failureMessages ?? []).join('\n').split('\n').slice(0, 8).join('\n    ');
      found.push(`${suite} › ${relative} › ${test.fullName}\n    ${message}`);
    }
  }
  return found;
}

async function step(name, command, args, env, { capture = true } = {}) {
  const started = Date.now();
  if (!capture) console.log(`\n=== ${name}`);
  const { code, output } = await run(command, args, { env, cwd: root, capture });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (capture) process.stdout.write(`\n=== ${name} (${seconds} s)\n${output}`);
  if (code !== 0) failedSteps++;
  return { code, seconds };
}

async function vitestSuite(name, config, env = {}, options) {
  const file = path.join(resultsDir, `${name.replace(/\W+/g, '-')}.json`);
  const { code, seconds } = await step(name, 'npx', ['vitest', 'run', '--config', config, '--reporter=default', '--reporter=json', `--outputFile=${file}`], env, options);
  let passed = 0;
  let failed = code === 0 ? 0 : 1;
  if (existsSync(file)) {
    const json = JSON.parse(readFileSync(file, 'utf8'));
    passed = json.numPassedTests;
    failed = json.numFailedTests + (code !== 0 && json.numFailedTests === 0 ? 1 : 0);
    failures.push(...failuresOf(name, json));
  }
  summary.push({ name, passed, failed, seconds });
}

async function checkStep(name, command, args) {
  const { code, seconds } = await step(name, command, args);
  summary.push({ name, passed: code === 0 ? 1 : 0, failed: code === 0 ? 0 : 1, seconds });
}

const postgres = await startPostgres();
try {
  // Two lanes side by side (measured per suite in docs/performance.md, ADR 85), and the end-to-end tests as soon as
  // the first lane ends (and the web build they serve is made) rather than after both: whichever lane is shorter on
  // the day, its core goes to the browser tests instead of waiting for the other lane.
  let built;
  const lanes = [
    (async () => {
      // Every feature of FEATURES.md named by a test (issue 24 point 5): seconds, so first.
      await checkStep('traceability', 'node', ['scripts/traceability.mjs', '--missing']);
      await checkStep('typecheck', 'npm', ['run', 'typecheck']);
      await checkStep('lint', 'npx', ['eslint', '--max-warnings=0', '.']);
      await vitestSuite('api (PostgreSQL)', 'apps/api/vitest.config.ts', { DATABASE_URL: postgres.url });
      await vitestSuite('web components', 'apps/web/vitest.config.ts');
    })(),
    (async () => {
      // The build first: the end-to-end tests need it, whichever lane ends first.
      built = checkStep('web build', 'npm', ['run', 'build', '-w', 'apps/web']);
      await built;
      await checkStep('web budgets', 'node', ['scripts/check-web-budgets.mjs']);
      await vitestSuite('api (PGlite)', 'apps/api/vitest.config.ts', { TEST_DB: 'pglite' });
    })(),
  ];
  await Promise.race(lanes);
  await built;
  const chromium = ensureChromium();
  const endToEnd = vitestSuite('end-to-end (Chromium)', 'apps/web/vitest.e2e.config.ts', { DATABASE_URL: postgres.url, CHROMIUM_PATH: chromium });
  await Promise.all([...lanes, endToEnd]);
} finally {
  postgres.stop();
}

console.log('\n=== Summary');
for (const s of summary) console.log(`${s.name.padEnd(24)} ${String(s.passed).padStart(4)} passed, ${s.failed} failed  (${s.seconds} s)`);
if (failures.length > 0) {
  console.log('\n=== Failed tests');
  for (const failure of failures) console.log(`\n${failure}`);
}
const passed = summary.reduce((n, s) => n + s.passed, 0);
const failed = summary.reduce((n, s) => n + s.failed, 0);
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 || failedSteps > 0 ? 1 : 0);
