// The MQTT part of `npm run bench -- --servers 2` (issue 15 item 6, docs/scaling.md): several API processes behind one
// external broker, Debian's Mosquitto started here on a free loopback port (no persistence), each process subscribed
// in one shared-subscription group (MQTT_SHARE_GROUP) with several sessions (MQTT_SUBSCRIBER_CONNECTIONS). The
// gateways of bench/ingest.ts publish one reading per QoS 1 message to the broker at a fixed rate (the broker
// acknowledges on receipt, so a closed loop would measure the broker alone); afterwards every acknowledged reading
// must be in the database, and the broker's own counters must show each message delivered to one server only.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import path from 'node:path';
import { connectAsync } from 'mqtt';
import pg from 'pg';
import { startMosquitto } from './mosquitto.mjs';
import { freePort } from './postgres.mjs';
import { BENCH_LIMITS_ENV, serverArgs } from './server-process.mjs';

export const SHARE_GROUP = 'sentinela';

/** Mosquitto, or an error that says how to install it (the bench must not fail obscurely). */
async function startBroker() {
  try {
    // Nothing may be dropped while the servers catch up (the default caps each session's queue), $SYS counters every
    // second for the checks, and no Nagle delay on PUBACKs.
    return await startMosquitto({ persistence: false, extra: ['max_queued_messages 0', 'sys_interval 1', 'set_tcp_nodelay true'] });
  } catch (err) {
    throw new Error(
      `MQTT com broker externo (--servers): o Mosquitto não pôde ser iniciado.\n` +
        `  Instale o pacote do Debian: sudo apt-get install -y mosquitto (o benchmark usa /usr/sbin/mosquitto; não precisa do serviço do sistema).\n` +
        `  Causa: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
}

/** The retained value of each `$SYS` topic, read by a client of its own; with `until`, waits until it holds. */
async function brokerCounters(url, topics, until = () => true, timeoutMs = 30_000) {
  const client = await connectAsync(url, { clientId: `bench-sys-${process.pid}-${Date.now()}`, clean: true, reconnectPeriod: 0 });
  const values = {};
  let received = 0;
  try {
    await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`Mosquitto $SYS: ${JSON.stringify(values)} never satisfied the wait`)), timeoutMs);
      client.on('message', (topic, payload) => {
        received++;
        values[topic] = Number(payload.toString());
        if (topics.every((t) => t in values) && until(values)) {
          clearTimeout(timer);
          resolve();
        }
      });
      client.subscribe(topics, { qos: 0 }, (err) => err && reject(err));
    });
  } finally {
    await client.endAsync(true);
  }
  return { values, received };
}

const SENT = '$SYS/broker/publish/messages/sent';
const RECEIVED = '$SYS/broker/publish/messages/received';
const CONNECTED = '$SYS/broker/clients/connected';

/**
 * Runs it. `ctx`: { root, outDir, postgresUrl, args (bench.mjs's), seconds, phase, waitForHealth, cleanups, cpu }, where
 * `cpu` is { cpuSeconds, coresSince } of bench.mjs.
 */
export async function mqttClusterBenchmark(ctx) {
  const { root, outDir, args, phase, waitForHealth, cleanups, cpu } = ctx;
  const count = Math.max(2, Number(args.servers));
  const sessions = Number(args['mqtt-subscribers']);
  const rate = Number(args['mqtt-rate']);
  const seconds = ctx.seconds;

  const admin = new pg.Client({ connectionString: ctx.postgresUrl });
  await admin.connect();
  await admin.query('CREATE DATABASE sentinela_mqtt_cluster');
  const version = (await admin.query('SHOW server_version')).rows[0].server_version;
  await admin.end();
  const u = new URL(ctx.postgresUrl);
  u.pathname = '/sentinela_mqtt_cluster';
  const dbUrl = u.toString();
  const { key } = await phase('setup', ['--db', dbUrl, '--devices', args.devices]);

  const broker = await startBroker();
  cleanups.push(() => broker.dispose());
  const servers = [];
  for (let i = 0; i < count; i++) {
    const port = await freePort();
    const child = spawn(process.execPath, serverArgs(root), {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
      env: {
        ...process.env, ...BENCH_LIMITS_ENV, NODE_ENV: 'production', DATABASE_URL: dbUrl, PORT: String(port), HOST: '127.0.0.1',
        MQTT_ENABLED: '1', MQTT_URL: broker.url, MQTT_GATEWAY_KEY: key, MQTT_CLIENT_ID: `sentinela-bench-${i + 1}`, MQTT_SHARE_GROUP: SHARE_GROUP,
        MQTT_SUBSCRIBER_CONNECTIONS: String(sessions), DEMO: '0', PUBLIC_URL: 'http://127.0.0.1', LOG_LEVEL: 'warn', NO_DATA_CHECK_SECONDS: '0', DB_POOL_SIZE: args.pool, REDIS_URL: '',
      },
    });
    servers.push(child);
    cleanups.push(async () => {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    });
    await waitForHealth(`http://127.0.0.1:${port}`, child);
  }
  // Messages published before a server's sessions subscribed would reach nobody. Mosquitto's $SYS does not count
  // shared subscriptions, so: every session connected (the wait's own client too), then a second for the SUBSCRIBE
  // each sends on its CONNACK. Had one been late, its messages would show as missing below, not pass unseen.
  const wait = await brokerCounters(broker.url, [CONNECTED], (v) => v[CONNECTED] >= count * sessions + 1);
  await new Promise((resolve) => setTimeout(resolve, 1000));

  const isServer = (pid) => servers.some((s) => String(s.pid) === pid);
  const isPostgres = (_pid, comm, cmdline) => comm === 'postgres' && cmdline().includes('sentinela_mqtt_cluster');
  const loadBefore = Number(loadavg()[0].toFixed(2));
  const cpu0 = [cpu.cpuSeconds(isServer), cpu.cpuSeconds(isPostgres), performance.now()];
  const result = await phase('mqtt', [
    '--mqtt-url', broker.url, '--key', key, '--devices', args.devices, '--duration', seconds, '--connections', args.connections, '--window', args.window,
    '--rate', String(rate), '--warmup', String(Math.min(3, Math.floor(Number(seconds) / 4))),
  ]);
  const publishedAt = performance.now();

  // The servers may still be working through the broker's queue: wait until every acknowledged reading is stored,
  // or until nothing more arrives for 30 s (then some are missing, and the run fails).
  const db = new pg.Client({ connectionString: dbUrl });
  await db.connect();
  let stored = 0;
  let progressAt = performance.now();
  while (stored < result.acknowledged && performance.now() - progressAt < 30_000) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = Number((await db.query('SELECT count(*) FROM readings')).rows[0].count);
    if (now > stored) progressAt = performance.now();
    stored = now;
  }
  const drainSeconds = Number(((performance.now() - publishedAt) / 1000).toFixed(1));
  const wall = (performance.now() - cpu0[2]) / 1000;
  const serverCpu = cpu.coresSince(cpu0[0], cpu.cpuSeconds(isServer), wall);
  const postgresCpu = cpu.coresSince(cpu0[1], cpu.cpuSeconds(isPostgres), wall);
  const loadAfter = Number(loadavg()[0].toFixed(2));
  // Stored per second over the span of the commits (received_at is each transaction's start), whatever the drain.
  const span = (await db.query('SELECT count(*)::int AS n, extract(epoch FROM max(received_at) - min(received_at)) AS s FROM readings')).rows[0];
  await db.end();
  const storedPerSecond = span.s > 0 ? Math.round(span.n / span.s) : 0;

  // The broker's counters, a second after the last store (they are refreshed every second): PUBLISHes received from
  // the gateways, and sent to subscribers, less those of the subscription wait above (sent to its own client).
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const sys = await brokerCounters(broker.url, [SENT, RECEIVED]);
  const toServers = sys.values[SENT] - wait.received;
  const fromGateways = sys.values[RECEIVED];
  for (const cleanup of cleanups.splice(0)) await cleanup();

  const missing = Math.max(0, result.acknowledged - stored);
  // Each message once: as many PUBLISHes sent to the servers as received from the gateways (a server that lost its
  // connection would get its unacknowledged messages again, and a subscription outside the group all of them).
  const deliveredOnce = toServers === fromGateways;
  const summary = {
    date: new Date().toISOString(), machine: { cores: cpus().length, model: cpus()[0]?.model ?? 'unknown' }, postgres: version, servers: count,
    sessionsPerServer: sessions, shareGroup: SHARE_GROUP, rate, ...result, stored, missing, storedPerSecond, drainSeconds, brokerReceived: fromGateways,
    brokerSent: toServers, deliveredOnce, serverCpu, postgresCpu, loadAverage: [loadBefore, loadAfter],
  };
  writeFileSync(path.join(outDir, 'mqtt-cluster.json'), JSON.stringify(summary, null, 2));

  const ok = (cond, bad) => (cond ? 'ok' : bad);
  console.log(`
| MQTT por broker externo (Mosquitto), ${count} servidores, grupo compartilhado $share/${SHARE_GROUP}, ${sessions} sessões cada, ${result.connections} gateways, ${rate.toLocaleString('pt-BR')} msg/s oferecidas, ${result.seconds} s | Resultado |
|---|---|
| PUBACK do broker (QoS 1, 1 leitura por mensagem) | ${result.readingsPerSecond.toLocaleString('pt-BR')}/s, p50 ${result.p50} ms, p99 ${result.p99} ms |
| Gravadas pelos servidores | ${storedPerSecond.toLocaleString('pt-BR')} leituras/s; fila esvaziada ${drainSeconds} s após a última publicação |
| Confirmadas pelo broker / gravadas / faltando | ${result.acknowledged.toLocaleString('pt-BR')} / ${stored.toLocaleString('pt-BR')} / ${missing} (${ok(missing === 0, 'PERDA')}) |
| Mensagens recebidas dos gateways / entregues aos servidores (contadores $SYS do broker) | ${fromGateways.toLocaleString('pt-BR')} / ${toServers.toLocaleString('pt-BR')} (${ok(deliveredOnce, 'ENTREGUES MAIS DE UMA VEZ')}) |
| CPU (núcleos): servidores / PostgreSQL | ${serverCpu} / ${postgresCpu} |
| Carga da máquina (load average 1 min, início → fim) | ${loadBefore} → ${loadAfter} |

PostgreSQL ${version}. Resultados em .tmp/bench/mqtt-cluster.json.`);
  if (missing > 0 || !deliveredOnce) process.exitCode = 1;
}
