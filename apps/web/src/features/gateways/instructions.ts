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

/** A RuuviTag's data format 5 advertisement (README's example): what a Ruuvi Gateway relays, undecoded ("raw"). */
const EXAMPLE_RUUVI_ADVERTISEMENT = '0201061BFF99040512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F';
const EXAMPLE_GATEWAY_MAC = 'C8:25:2D:8E:9C:2C';

/**
 * `curl` posting what a Ruuvi Gateway posts to its custom HTTP(S) server, with the key as the Bearer token the
 * gateway's settings ask for: a way to check the address and the key before touching the gateway.
 */
export function ruuviHttpExample(connection: GatewayConnection, key: string): string {
  const body = JSON.stringify({
    data: { gw_mac: EXAMPLE_GATEWAY_MAC, coordinates: '', tags: { [EXAMPLE_MAC]: { rssi: -71, data: EXAMPLE_RUUVI_ADVERTISEMENT } } },
  });
  return [
    `curl -X POST ${shellQuote(connection.ruuvi.http_url)} \\`,
    `  -H ${shellQuote(`Authorization: Bearer ${key}`)} \\`,
    `  -H 'Content-Type: application/json' \\`,
    `  -d ${shellQuote(body)}`,
  ].join('\n');
}

/** The MQTT topic prefix a Ruuvi Gateway must keep (its default), as typed in its settings; null without MQTT. */
export function ruuviTopicPrefix(connection: GatewayConnection): string | null {
  const topic = connection.ruuvi.mqtt_topic;
  return topic ? topic.slice(0, topic.lastIndexOf('/') + 1).replace('{gateway_mac}', '{mac do gateway}') : null;
}
