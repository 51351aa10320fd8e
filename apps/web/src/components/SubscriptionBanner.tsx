import { Alert, Anchor, Text } from '@mantine/core';
import { can, formatBRL } from '@sentinela/contract';
import { IconAlertTriangle, IconLock } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useLocation } from 'react-router';
import type { Session } from '../lib/session';
import { ApiError } from '../lib/api-client';
import { FINANCIAL_PATH, formatDay, subscriptionKeys, useSubscriptionStanding } from '../lib/subscription';

/**
 * The signed-in shell's banner (ADR 32, ADR 39) on every screen of an enterprise with an overdue invoice: a warning
 * with the day the restriction starts, then the restriction itself. Administrators get a link to Financeiro; the
 * other users are told who can pay. Monitoring is never affected, and the banner says so. Users without an enterprise
 * (the super admin) ask nothing.
 */
export function SubscriptionBanner({ session }: { session: Session }) {
  const hasEnterprise = !!session.enterprise?._id;
  const standing = useSubscriptionStanding(hasEnterprise);
  const { pathname } = useLocation();
  const { dataUpdatedAt, isFetching, isStale, refetch } = standing;
  // A screen change is the user's own activity: read the standing again there once it is old (no timer, ADR 39).
  // The first screen is served by the query's own first read.
  useEffect(() => {
    if (hasEnterprise && dataUpdatedAt > 0 && isStale && !isFetching) void refetch();
    // Only a screen change asks again; a query turning stale while the user reads one screen does not.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pathname]);
  // A 402 (a restricted subscription refusing a new commitment, ADR 32) means the banner is behind: read it now.
  const queryClient = useQueryClient();
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type !== 'updated' || event.action.type !== 'error') return;
        const { error } = event.action;
        if (error instanceof ApiError && error.status === 402) void queryClient.invalidateQueries({ queryKey: subscriptionKeys.standing });
      }),
    [queryClient],
  );
  const invoice = standing.data?.overdue_invoice;
  if (!invoice) return null;
  const admin = can(session.user.profile._id, 'financial:read');
  const restricted = !!standing.data?.restricted_at;
  const what = `A fatura nº ${invoice.number} (${formatBRL(invoice.valor)}) venceu em ${formatDay(invoice.due_at)}.`;
  const action = admin ? (
    <Anchor component={Link} to={FINANCIAL_PATH} fw={600}>
      Pagar em Financeiro
    </Anchor>
  ) : (
    <Text span>Avise um administrador da empresa.</Text>
  );
  return (
    <Alert
      mb="md"
      color={restricted ? 'red' : 'yellow'}
      icon={restricted ? <IconLock /> : <IconAlertTriangle />}
      title={restricted ? 'Acesso restrito por falta de pagamento' : 'Fatura vencida'}
      data-testid="subscription-banner"
    >
      <Text size="sm">
        {what}{' '}
        {restricted
          ? 'Novos usuários, novos dispositivos e upgrades de plano estão bloqueados até o pagamento.'
          : `Sem o pagamento até ${standing.data?.restricts_at ? formatDay(standing.data.restricts_at) : 'o fim do prazo'}, novos usuários, novos dispositivos e upgrades de plano serão bloqueados.`}{' '}
        Leituras, alarmes, histórico e relatórios continuam funcionando. {action}
      </Text>
    </Alert>
  );
}
