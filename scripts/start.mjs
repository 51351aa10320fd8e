// `npm start`: builds the web app when its build is missing or older than its sources, then runs the
// server (migrations, demo data on an empty database, API and web on PORT). The server runs with
// NODE_ENV=production, where demo data must be asked for: `npm start` asks for it on the embedded database (the
// try-it-out install the README promises), never on a PostgreSQL server (DATABASE_URL), unless DEMO says so.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { withBuildLock } from './lib/build-lock.mjs';
import { run } from './lib/run.mjs';
import { serverArgs } from './lib/server-process.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webDist = path.join(root, 'apps/web/dist');

function newestMtime(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(target).map((name) => (name === 'node_modules' ? 0 : newestMtime(path.join(target, name)))));
}

const sources = ['apps/web/src', 'apps/web/public', 'apps/web/index.html', 'apps/web/vite.config.ts', 'packages/contract/src'];
const stale = () => {
  const builtAt = existsSync(path.join(webDist, 'index.html')) ? statSync(path.join(webDist, 'index.html')).mtimeMs : 0;
  return sources.some((s) => newestMtime(path.join(root, s)) > builtAt);
};
if (!process.env.WEB_DIST && stale()) {
  // One build at a time in this folder (ADR 68): a second `npm start` waits for the first one's build, then finds it
  // fresh. A server already running keeps serving: it reads the new files at request time, old assets stay a while.
  const code = await withBuildLock(
    path.join(root, 'apps/web/.build.lock'),
    async () => {
      if (!stale()) return 0;
      console.log('Construindo a aplicação web…');
      return (await run('npm', ['run', 'build', '-w', 'apps/web'], { cwd: root })).code;
    },
    { onWait: (pid) => console.log(`Aguardando a construção da aplicação web em andamento (processo ${pid})…`) },
  );
  if (code !== 0) process.exit(code);
}

const server = spawn(process.execPath, serverArgs(root), {
  stdio: 'inherit',
  cwd: root,
  env: { WEB_DIST: webDist, NODE_ENV: 'production', ...(process.env.DATABASE_URL ? {} : { DEMO: '1' }), ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
