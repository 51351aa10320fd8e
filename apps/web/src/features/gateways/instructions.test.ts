import { describe, expect, it } from 'vitest';
import { httpExample, mqttExample, ruuviHttpExample, ruuviTopicPrefix } from './instructions';

const connection = {
  http: { url: 'https://monitor.example.com.br/api/ingest/readings' },
  mqtt: { host: 'monitor.example.com.br', port: 1883, tls_port: 8883, topic: 'devices/{mac}/readings' },
  ruuvi: { http_url: 'https://monitor.example.com.br/api/ingest/ruuvi', mqtt_topic: 'ruuvi/{gateway_mac}/{mac}' },
};
const now = new Date('2026-11-26T12:00:00.123Z');

describe('gateway instructions', () => {
  it('HTTP: the configured address, the key in the ApiKey header, a batch of readings', () => {
    expect(httpExample(connection, 'sgw_abc', now)).toBe(
      [
        "curl -X POST 'https://monitor.example.com.br/api/ingest/readings' \\",
        "  -H 'Authorization: ApiKey sgw_abc' \\",
        "  -H 'Content-Type: application/json' \\",
        `  -d '{"readings":[{"mac":"AA:BB:CC:DD:EE:FF","ts":"2026-11-26T12:00:00Z","temperature":4.5,"humidity":61.2,"battery":87}]}'`,
      ].join('\n'),
    );
  });

  it('MQTT: host, port (or the TLS port), QoS 1, the key as password, the topic with the MAC', () => {
    const plain = mqttExample(connection, 'sgw_abc', false, now)!;
    expect(plain).toContain("mosquitto_pub -h 'monitor.example.com.br' -p 1883 -q 1");
    expect(plain).toContain("-P 'sgw_abc'");
    expect(plain).toContain("-t 'devices/AA:BB:CC:DD:EE:FF/readings'");
    expect(mqttExample(connection, 'sgw_abc', true, now)).toContain('-p 8883 --capath /etc/ssl/certs');
    expect(mqttExample({ ...connection, mqtt: null }, 'sgw_abc', false, now)).toBeNull();
    expect(mqttExample({ ...connection, mqtt: { ...connection.mqtt, tls_port: null } }, 'k', true, now)).toBeNull();
  });

  it('Ruuvi Gateway (X6): its custom HTTP server with the key as Bearer token, and the default MQTT prefix', () => {
    const curl = ruuviHttpExample(connection, 'sgw_abc');
    expect(curl).toContain("curl -X POST 'https://monitor.example.com.br/api/ingest/ruuvi'");
    expect(curl).toContain("-H 'Authorization: Bearer sgw_abc'");
    const body = JSON.parse(/-d '(.*)'$/.exec(curl)![1]!) as { data: { gw_mac: string; tags: Record<string, { data: string }> } };
    expect(body.data.gw_mac).toBe('C8:25:2D:8E:9C:2C');
    expect(body.data.tags['AA:BB:CC:DD:EE:FF']!.data).toMatch(/^[0-9A-F]+$/);
    expect(ruuviTopicPrefix(connection)).toBe('ruuvi/{mac do gateway}/');
    expect(ruuviTopicPrefix({ ...connection, mqtt: null, ruuvi: { ...connection.ruuvi, mqtt_topic: null } })).toBeNull();
  });
});
