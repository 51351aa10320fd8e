// A hostile gateway for the abuse bench (issue 9): it authenticates like any gateway (MQTT, the key as password) and
// keeps publishing poison — invalid JSON, huge and tiny numbers, NUL characters, a value far outside any range — and,
// over a second connection, packets far above the broker's maximum size. What the platform owes it (ADR 12): every
// poison message acknowledged (PUBACK) and counted, its connection kept; every oversize packet refused by its header,
// that connection closed before the payload is read.
import { connect as netConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { connect as mqttConnect, type MqttClient } from 'mqtt';
import mqttPacket from 'mqtt-packet';

export interface PoisonGatewayOptions {
  /** mqtt://host:port or mqtts://host:port (a self-signed broker certificate is accepted). */
  mqttUrl: string;
  username?: string;
  /** The gateway's key. */
  password: string;
  clientId: string;
  durationMs: number;
  /** Poison messages per second (oversize packets take one slot in `oversizeEvery`). */
  ratePerSecond: number;
  /** The device MAC of the topic; any MAC will do (an unknown one is rejected as such, and counted). */
  mac?: string;
  /** One message in this many is an oversize packet, on its own connection; 0 disables them. Default 20. */
  oversizeEvery?: number;
  /** The size an oversize packet declares. Default 100 MB. */
  oversizeBytes?: number;
  /** Unacknowledged messages at most; above it, a slot is skipped (counted in `skipped`). Default 1000. */
  maxInflight?: number;
}

export type PoisonKind = 'invalid_json' | 'huge_number' | 'tiny_number' | 'nul_characters' | 'out_of_range' | 'oversize';

export interface PoisonGatewayResult {
  sent: number;
  /** Poison messages the broker acknowledged (PUBACK). */
  acked: number;
  /** Sent, never acknowledged by the end (plus a grace second). */
  unacked: number;
  /** Times the main connection was closed by the broker. */
  disconnects: number;
  /** Oversize packets declared, and how many of those connections the broker closed before the payload was sent. */
  oversizeSent: number;
  oversizeRefused: number;
  /** Bytes of oversize payload written before the broker closed the connection, all attempts together. */
  oversizeBytesWritten: number;
  skipped: number;
  byKind: Record<PoisonKind, { sent: number; acked: number }>;
}

const KINDS: readonly Exclude<PoisonKind, 'oversize'>[] = ['invalid_json', 'huge_number', 'tiny_number', 'nul_characters', 'out_of_range'];

function poisonPayload(kind: Exclude<PoisonKind, 'oversize'>, seq: number): string {
  const ts = new Date(Date.now() - (seq % 600) * 1000).toISOString();
  switch (kind) {
    case 'invalid_json':
      return `{"ts": "${ts}", "temperature": ` + '['.repeat(seq % 50);
    case 'huge_number':
      return JSON.stringify({ ts, temperature: 1e308, humidity: 1e300, battery: -1e300 });
    case 'tiny_number':
      return JSON.stringify({ ts, temperature: 1e-50, lat: 1e-300, lng: 1e-300 });
    case 'nul_characters':
      return JSON.stringify({ mac: `AA\u0000${seq}`, ts: `${ts}\u0000`, temperature: 1 });
    case 'out_of_range':
      return JSON.stringify({ readings: [{ ts, temperature: 10_000 }, { ts, humidity: -5 }, 'lixo', null] });
  }
}

export async function runPoisonGateway(options: PoisonGatewayOptions): Promise<PoisonGatewayResult> {
  const mac = options.mac ?? 'C3:00:00:00:0F:0F';
  const topic = `devices/${mac}/readings`;
  const oversizeEvery = options.oversizeEvery ?? 20;
  const maxInflight = options.maxInflight ?? 1000;
  const result: PoisonGatewayResult = {
    sent: 0, acked: 0, unacked: 0, disconnects: 0, oversizeSent: 0, oversizeRefused: 0, oversizeBytesWritten: 0, skipped: 0,
    byKind: Object.fromEntries([...KINDS, 'oversize'].map((k) => [k, { sent: 0, acked: 0 }])) as PoisonGatewayResult['byKind'],
  };

  const client: MqttClient = mqttConnect(options.mqttUrl, {
    username: options.username ?? 'gateway',
    password: options.password,
    clientId: options.clientId,
    reconnectPeriod: 200,
    connectTimeout: 5000,
    rejectUnauthorized: false,
  });
  let closedByUs = false;
  client.on('close', () => {
    if (!closedByUs) result.disconnects++;
  });
  client.on('error', () => {}); // counted through 'close'
  await new Promise<void>((resolve, reject) => {
    client.once('connect', () => resolve());
    client.once('error', reject);
  });

  let inflight = 0;
  const oversize: Promise<void>[] = [];
  const started = Date.now();
  const intervalMs = 1000 / options.ratePerSecond;
  for (let seq = 0; Date.now() - started < options.durationMs; seq++) {
    const due = started + seq * intervalMs;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    if (oversizeEvery > 0 && seq % oversizeEvery === oversizeEvery - 1) {
      result.sent++;
      result.oversizeSent++;
      result.byKind.oversize.sent++;
      oversize.push(sendOversize(options, `${options.clientId}-oversize-${seq}`, topic, options.oversizeBytes ?? 100 * 1024 * 1024, result));
      continue;
    }
    if (inflight >= maxInflight) {
      result.skipped++;
      continue;
    }
    const kind = KINDS[seq % KINDS.length]!;
    result.sent++;
    result.byKind[kind].sent++;
    inflight++;
    client.publish(topic, poisonPayload(kind, seq), { qos: 1 }, (err) => {
      inflight--;
      if (!err) {
        result.acked++;
        result.byKind[kind].acked++;
      }
    });
  }
  // A grace second for the last acknowledgements.
  const graceEnd = Date.now() + 1000;
  while (inflight > 0 && Date.now() < graceEnd) await new Promise((resolve) => setTimeout(resolve, 20));
  await Promise.all(oversize);
  result.unacked = inflight;
  closedByUs = true;
  await client.endAsync(true);
  return result;
}

/**
 * One oversize PUBLISH on its own connection: CONNECT with the gateway's key, then a header declaring `bytes`, then
 * payload in 64 KiB chunks for as long as the broker keeps the connection open (at most one second, or `bytes`).
 */
async function sendOversize(options: PoisonGatewayOptions, clientId: string, topic: string, bytes: number, result: PoisonGatewayResult): Promise<void> {
  const url = new URL(options.mqttUrl);
  const secure = url.protocol === 'mqtts:';
  const port = Number(url.port || (secure ? 8883 : 1883));
  const socket: Socket = secure ? tlsConnect({ host: url.hostname, port, rejectUnauthorized: false }) : netConnect(port, url.hostname);
  socket.on('error', () => {});
  let open = true;
  const closed = new Promise<void>((resolve) => socket.once('close', () => {
    open = false;
    resolve();
  }));
  const connack = new Promise<boolean>((resolve) => {
    const parser = mqttPacket.parser({ protocolVersion: 4 });
    parser.on('packet', (packet) => {
      if (packet.cmd === 'connack') resolve(packet.returnCode === 0);
    });
    socket.on('data', (chunk: Buffer) => parser.parse(chunk));
    void closed.then(() => resolve(false));
  });
  await new Promise<void>((resolve) => {
    socket.once(secure ? 'secureConnect' : 'connect', () => resolve());
    void closed.then(() => resolve());
  });
  if (!open) return;
  socket.write(mqttPacket.generate({ cmd: 'connect', protocolId: 'MQTT', protocolVersion: 4, clean: true, clientId, keepalive: 0, username: options.username ?? 'gateway', password: Buffer.from(options.password) }));
  if (!(await connack)) {
    socket.destroy();
    return;
  }
  // PUBLISH QoS 1 (0x32): the remaining length covers topic, packet id and a payload the broker must never read.
  const topicBytes = Buffer.from(topic);
  const variableHeader = Buffer.concat([Buffer.from([topicBytes.length >> 8, topicBytes.length & 0xff]), topicBytes, Buffer.from([0, 1])]);
  socket.write(Buffer.concat([fixedHeader(0x32, variableHeader.length + bytes), variableHeader]));
  const chunk = Buffer.alloc(64 * 1024, 0x41);
  const deadline = Date.now() + 1000;
  let written = 0;
  while (open && written < bytes && Date.now() < deadline) {
    written += chunk.length;
    if (!socket.write(chunk)) await Promise.race([new Promise((resolve) => socket.once('drain', resolve)), closed, new Promise((resolve) => setTimeout(resolve, 100))]);
  }
  result.oversizeBytesWritten += written;
  if (!open) result.oversizeRefused++;
  socket.destroy();
  await closed;
}

/** An MQTT fixed header: packet type and flags, and the remaining length as MQTT's variable-length integer. */
export function fixedHeader(typeAndFlags: number, remainingLength: number): Buffer {
  const bytes = [typeAndFlags];
  let n = remainingLength;
  do {
    let byte = n % 128;
    n = Math.floor(n / 128);
    if (n > 0) byte |= 0x80;
    bytes.push(byte);
  } while (n > 0);
  return Buffer.from(bytes);
}
