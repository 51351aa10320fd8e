// Starts a throwaway Mosquitto broker (Debian's package, installed with apt when missing) on a free loopback
// port, for the tests of the external-broker path. Persistence is on, so the broker can be stopped and
// started again on the same port and still hold the queued messages of persistent sessions (the benchmark's
// broker runs without it, `persistence: false`, and with `extra` lines of its own). As root,
// Mosquitto drops to its own `mosquitto` user after binding, so its folder is handed to that user.
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ensureDebianPackage, firstExisting, isRoot, waitForPort } from './debian-packages.mjs';
import { freePort } from './postgres.mjs';

const findMosquitto = firstExisting(['/usr/sbin/mosquitto', '/usr/bin/mosquitto']);

/**
 * Starts a broker; returns its URL, port, `stop()` (graceful: the broker saves its persistence),
 * `start()` (again, on the same port) and `dispose()` (stop and remove its files). `extra`: more lines of
 * mosquitto.conf, after these (a later line wins).
 */
export async function startMosquitto({ persistence = true, extra = [] } = {}) {
  const bin = ensureDebianPackage({ pkg: 'mosquitto', find: findMosquitto, label: 'mqtt' });
  const dir = mkdtempSync(path.join(tmpdir(), 'sentinela-mqtt-'));
  chmodSync(dir, 0o777);
  if (isRoot) execFileSync('chown', ['mosquitto:mosquitto', dir]);
  const port = await freePort();
  const conf = path.join(dir, 'mosquitto.conf');
  writeFileSync(
    conf,
    [
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      ...(persistence ? ['persistence true', `persistence_location ${dir}/`, 'autosave_interval 1'] : ['persistence false']),
      'max_queued_messages 100000',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      ...(isRoot ? ['user mosquitto'] : []),
      ...extra,
    ].join('\n') + '\n',
  );
  chmodSync(conf, 0o644);

  let child = null;
  let exited = null;
  async function start() {
    if (child) return;
    child = spawn(bin, ['-c', conf], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      await Promise.race([
        waitForPort(port, 10_000, 'Mosquitto'),
        exited.then((code) => Promise.reject(new Error(`Mosquitto exited (${code}): ${stderr}`))),
      ]);
    } catch (err) {
      child = null;
      throw err;
    }
  }
  async function stop() {
    if (!child) return;
    const running = child;
    child = null;
    running.kill('SIGTERM');
    await exited;
  }
  await start();
  console.log(`[mqtt] Mosquitto (${bin}) on 127.0.0.1:${port}`);
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    start,
    stop,
    async dispose() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
