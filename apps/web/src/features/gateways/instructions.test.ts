import { describe, expect, it } from 'vitest';
import { httpExample, mqttExample } from './instructions';

const connection = {
  http: { url: 'https://monitor.example.com.br/api/ingest/readings' },
  mqtt: { host: 'monitor.example.com.br', port: 1883, tls_port: 8883, topic: 'devices/{mac}/readings' },
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
});
