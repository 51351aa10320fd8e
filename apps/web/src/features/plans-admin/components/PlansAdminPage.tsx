import '@mantine/core/styles/Tabs.css';
import { Stack, Tabs, Title } from '@mantine/core';
import { useSearchParams } from 'react-router';
import { FaqTab } from './FaqTab';
import { PlansTab } from './PlansTab';

/**
 * /admin/plans "Planos" (issue 13, item 1; ADR 28): the super admin's plans (cycles, prices, device limits, retire)
 * and the landing page's FAQ, one tab each (the tab is in the address, so a reload keeps it).
 */
export function PlansAdminPage() {
  const [params, setParams] = useSearchParams();
  const tab = params.get('tab') === 'faq' ? 'faq' : 'plans';
  return (
    <Stack>
      <Title order={2}>Planos</Title>
      <Tabs value={tab} onChange={(value) => setParams(value === 'faq' ? { tab: 'faq' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="plans">Planos</Tabs.Tab>
          <Tabs.Tab value="faq">Perguntas frequentes</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="plans">
          <PlansTab />
        </Tabs.Panel>
        <Tabs.Panel value="faq">
          <FaqTab />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
