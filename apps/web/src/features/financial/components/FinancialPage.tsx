import '@mantine/core/styles/Tabs.css';
import { Button, Group, Stack, Tabs, Title } from '@mantine/core';
import { can, type Invoice } from '@sentinela/contract';
import { useCallback, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { paths } from '../../../lib/paths';
import { EnterprisePicker, useChosenEnterprise } from '../../../components/EnterprisePicker';
import { useRequiredSession } from '../../../lib/session';
import { CardsCarousel } from '../cards/CardsCarousel';
import { BankAccountCard } from './BankAccountCard';
import { InvoiceDetailModal } from './InvoiceDetailModal';
import { InvoicesTab } from './InvoicesTab';
import { PayInvoiceModal } from './PayInvoiceModal';

/**
 * /financial "Financeiro" (A9, document 000 §2): the cards carousel and its add-card button, then the Faturas tab
 * (search, pages, "Pagar Fatura" while pending, each invoice's detail and signed PDF), and the platform's receiving
 * bank account. Enterprise administrators see their enterprise's; the super admin every enterprise's, or one chosen.
 * Search, page and the chosen enterprise live in the URL (?search=, ?page=, ?id=).
 */
export function FinancialPage() {
  const { user, enterprise } = useRequiredSession();
  const { clientId, canChoose } = useChosenEnterprise();
  const [params, setParams] = useSearchParams();
  const search = params.get('search') ?? '';
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const [detail, setDetail] = useState<Invoice | null>(null);
  const [paying, setPaying] = useState<Invoice | null>(null);

  const setQuery = useCallback(
    (changes: Record<string, string | null>) =>
      setParams(
        (previous) => {
          const next = new URLSearchParams(previous);
          for (const [key, value] of Object.entries(changes)) {
            if (value) next.set(key, value);
            else next.delete(key);
          }
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const onSearchChange = useCallback((value: string) => setQuery({ search: value.trim() || null, page: null }), [setQuery]);
  const onPageChange = useCallback((value: number) => setQuery({ page: value > 1 ? String(value) : null }), [setQuery]);
  // One URL update: two in the same tick would each start from the same previous search and the last would win.
  const chooseEnterprise = (id: string | null) => setQuery({ id, page: null });

  // The enterprise whose cards show: the admin's own, or the one the super admin chose (none for "every enterprise").
  const cardsEnterpriseId = canChoose ? clientId : enterprise._id;

  return (
    <Stack>
      <Group justify="space-between" wrap="wrap" gap="sm">
        <Title order={2}>Financeiro</Title>
        {/* The enterprise's own plan: where its administrators change it (the super admin has no plan of its own). */}
        {!canChoose && enterprise._id && (
          <Button component={Link} to={paths.plans} variant="light">
            Plano e assinatura
          </Button>
        )}
      </Group>
      {canChoose && <EnterprisePicker value={clientId} onChange={chooseEnterprise} clearablePlaceholder="Todas as empresas" />}
      {cardsEnterpriseId && (
        <section aria-label="Cartões">
          {/* An administrator's own cards need no id; the super admin's are the chosen enterprise's. */}
          <CardsCarousel enterpriseId={canChoose ? (clientId ?? undefined) : undefined} />
        </section>
      )}
      <Tabs defaultValue="invoices" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="invoices">Faturas</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="invoices" pt="md">
          <Stack>
            <InvoicesTab
              key={clientId ?? 'all'}
              enterpriseId={canChoose ? clientId : null}
              showEnterprise={canChoose && !clientId}
              showStanding={canChoose}
              search={search}
              page={page}
              onSearchChange={onSearchChange}
              onPageChange={onPageChange}
              onOpen={setDetail}
              onPay={setPaying}
            />
            <BankAccountCard />
          </Stack>
        </Tabs.Panel>
      </Tabs>
      <InvoiceDetailModal
        invoice={detail}
        onClose={() => setDetail(null)}
        onPay={(invoice) => {
          setDetail(null);
          setPaying(invoice);
        }}
        canMarkPaid={can(user.profile._id, 'financial:manage')}
      />
      <PayInvoiceModal invoice={paying} onClose={() => setPaying(null)} />
    </Stack>
  );
}
