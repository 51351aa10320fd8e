import '@mantine/core/styles/Tabs.css';
import { List, Stack, Tabs, Text } from '@mantine/core';
import type { GatewayConnection } from '@sentinela/contract';
import { httpExample, mqttExample, ruuviHttpExample, ruuviTopicPrefix } from '../instructions';
import { CopyableBlock } from '../../../components/CopyableBlock';

/** Where the key goes when the page explains without one (the key itself is shown only once, at creation). */
export const KEY_PLACEHOLDER = '<chave do gateway>';

interface ConnectionInstructionsProps {
  connection: GatewayConnection;
  /** The new gateway's key, or null for the placeholder. */
  gatewayKey: string | null;
  now: Date;
}

/**
 * How a gateway sends readings to this server, with its real addresses: our HTTP batch and MQTT formats, and a Ruuvi
 * Gateway set up as it is (README "Ruuvi Gateway and other BLE sensors", ADR 33).
 */
export function ConnectionInstructions({ connection, gatewayKey, now }: ConnectionInstructionsProps) {
  const key = gatewayKey ?? KEY_PLACEHOLDER;
  const mqttPlain = mqttExample(connection, key, false, now);
  const mqttTls = mqttExample(connection, key, true, now);
  const mqtt = connection.mqtt;
  const ruuviPrefix = ruuviTopicPrefix(connection);
  const breakAll = { wordBreak: 'break-all' } as const;
  return (
    <Tabs defaultValue="http" keepMounted={false}>
      <Tabs.List>
        <Tabs.Tab value="http">HTTP</Tabs.Tab>
        <Tabs.Tab value="mqtt">MQTT</Tabs.Tab>
        <Tabs.Tab value="ruuvi">Ruuvi Gateway</Tabs.Tab>
      </Tabs.List>
      <Tabs.Panel value="http" pt="sm">
        <Stack gap="sm">
          <Text size="sm">
            Envie lotes de leituras por <b>POST</b> para <b style={breakAll}>{connection.http.url}</b> com o cabeçalho{' '}
            <b>Authorization: ApiKey &lt;chave&gt;</b>. Cada leitura tem <b>mac</b>, <b>ts</b> (UTC) e os valores medidos; até 5.000 por lote.
          </Text>
          <CopyableBlock label="Exemplo com curl" value={httpExample(connection, key, now)} block />
        </Stack>
      </Tabs.Panel>
      <Tabs.Panel value="mqtt" pt="sm">
        {mqtt && mqttPlain ? (
          <Stack gap="sm">
            <Text size="sm">
              Conecte-se a <b>{mqtt.host}</b>, porta <b>{mqtt.port}</b>
              {mqtt.tls_port ? (
                <>
                  {' '}
                  (ou <b>{mqtt.tls_port}</b> com TLS)
                </>
              ) : null}
              , com qualquer usuário e a chave como senha. Publique com QoS 1 no tópico <b>{mqtt.topic}</b>, uma leitura ou{' '}
              <b>{'{"readings": [...]}'}</b> por mensagem.
            </Text>
            <CopyableBlock label="Exemplo com mosquitto_pub" value={mqttPlain} block />
            {mqttTls && <CopyableBlock label="Exemplo com TLS" value={mqttTls} block />}
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            Este servidor não recebe leituras por MQTT com chaves de gateway. Use o envio por HTTP.
          </Text>
        )}
      </Tabs.Panel>
      <Tabs.Panel value="ruuvi" pt="sm">
        <Stack gap="sm">
          <Text size="sm">
            O Ruuvi Gateway envia direto ao Sentinela, sem tradutor. Cadastre antes os MACs das tags como dispositivos. Na página de configuração do
            gateway:
          </Text>
          <List size="sm" spacing={4}>
            <List.Item>
              <b>HTTP</b>: em <i>Cloud options</i>, escolha <i>Use custom HTTP(S) server</i>, com a URL abaixo, o formato de dados <b>raw</b> (não
              decodificado no gateway) e a autenticação <b>Bearer</b> com a chave do gateway como token.
            </List.Item>
            <List.Item>
              <b>MQTT</b>:{' '}
              {mqtt && ruuviPrefix ? (
                <>
                  em <i>Use MQTT(S)</i>, servidor <b>{mqtt.host}</b>, porta <b>{mqtt.port}</b>
                  {mqtt.tls_port ? <> (ou {mqtt.tls_port} com TLS)</> : null}, qualquer usuário e a chave como senha, mantendo o prefixo de tópico
                  padrão <b style={breakAll}>{ruuviPrefix}</b>: o gateway publica uma mensagem por tag em{' '}
                  <b style={breakAll}>{connection.ruuvi.mqtt_topic?.replace('{gateway_mac}', '{mac do gateway}').replace('{mac}', '{mac da tag}')}</b>.
                </>
              ) : (
                <>este servidor não recebe leituras por MQTT com chaves de gateway; use o HTTP.</>
              )}
            </List.Item>
          </List>
          <CopyableBlock label="URL do servidor HTTP(S)" value={connection.ruuvi.http_url} />
          {gatewayKey && <CopyableBlock label="Token (Bearer)" value={gatewayKey} />}
          <CopyableBlock label="Teste com curl (o que o gateway envia)" value={ruuviHttpExample(connection, key)} block />
        </Stack>
      </Tabs.Panel>
    </Tabs>
  );
}
