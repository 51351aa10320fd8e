import '../styles';
import { Stack, Tabs, Text, Title } from '@mantine/core';
import { IconKey, IconWebhook } from '@tabler/icons-react';
import { useSearchParams } from 'react-router';
import { ApiTokensPanel } from './ApiTokensPanel';
import { WebhooksPanel } from './WebhooksPanel';

type Tab = 'tokens' | 'webhooks';

/**
 * /integrations "Integrações" (X13, ADRs 64–66): the enterprise's API tokens and webhooks, for its administrators.
 * The open tab is kept in the address (`?aba=webhooks`), so a link can point at it.
 */
export function IntegrationsPage() {
  const [params, setParams] = useSearchParams();
  const tab: Tab = params.get('aba') === 'webhooks' ? 'webhooks' : 'tokens';
  return (
    <Stack>
      <Title order={2}>Integrações</Title>
      <Text size="sm" c="dimmed">
        Conecte outros sistemas (TMS, ERP, sistema da qualidade) ao Sentinela: tokens de API para consultar dispositivos, leituras,
        alarmes, viagens e relatórios, e webhooks assinados que avisam quando algo acontece.
      </Text>
      <Tabs
        value={tab}
        onChange={(value) => setParams(value === 'webhooks' ? { aba: 'webhooks' } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="tokens" leftSection={<IconKey size={16} />}>
            Tokens de API
          </Tabs.Tab>
          <Tabs.Tab value="webhooks" leftSection={<IconWebhook size={16} />}>
            Webhooks
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tokens" pt="md">
          <ApiTokensPanel />
        </Tabs.Panel>
        <Tabs.Panel value="webhooks" pt="md">
          <WebhooksPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
