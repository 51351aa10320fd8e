import type { GatewayConnection } from '@sentinela/contract';

const EXAMPLE_MAC = 'AA:BB:CC:DD:EE:FF';

/** A reading as the examples send it: now, in UTC, without milliseconds. */
function exampleReading(now: Date) {
  return { ts: now.toISOString().replace(/\.\d{3}Z$/, 'Z'), temperature: 4.5, humidity: 61.2, battery: 87 };
}

/** Single quotes for a POSIX shell: the key and the body are pasted as they are. */
const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** `curl` sending one batch to the HTTP endpoint with the key. */
export function httpExample(connection: GatewayConnection, key: string, now = new Date()): string {
  const body = JSON.stringify({ readings: [{ mac: EXAMPLE_MAC, ...exampleReading(now) }] });
  return [
    `curl -X POST ${shellQuote(connection.http.url)} \\`,
    `  -H ${shellQuote(`Authorization: ApiKey ${key}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/** `mosquitto_pub` publishing one reading with QoS 1, the key as the password; null without MQTT. */
export function mqttExample(connection: GatewayConnection, key: string, tls: boolean, now = new Date()): string | null {
  const mqtt = connection.mqtt;
  const port = tls ? mqtt?.tls_port : mqtt?.port;
  if (!mqtt || !port) return null;
  const topic = mqtt.topic.replace('{mac}', EXAMPLE_MAC);
  return [
    `mosquitto_pub -h ${shellQuote(mqtt.host)} -p ${port}${tls ? ' --capath /etc/ssl/certs' : ''} -q 1 \\`,
    `  -i gateway-01 -u gateway -P ${shellQuote(key)} \\`,
    `  -t ${shellQuote(topic)} \\`,
    `  -m ${shellQuote(JSON.stringify(exampleReading(now)))}`,
  ].join('\n');
}
