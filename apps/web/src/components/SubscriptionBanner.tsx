import { Alert, Anchor, Text } from '@mantine/core';
import { can, formatBRL } from '@sentinela/contract';
import { IconAlertTriangle, IconLock } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Session } from '../lib/session';
import { FINANCIAL_PATH, formatDay, useSubscriptionStanding } from '../lib/subscription';

/**
 * The signed-in shell's banner (ADR 32) for an enterprise with an overdue invoice: a warning with the day the
 * restriction starts, then the restriction itself. Administrators get a link to Financeiro; the other users are told
 * who can pay. Monitoring is never affected, and the banner says so.
 */
export function SubscriptionBanner({ session }: { session: Session }) {
  const hasEnterprise = !!session.enterprise?._id;
  const standing = useSubscriptionStanding(hasEnterprise);
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
