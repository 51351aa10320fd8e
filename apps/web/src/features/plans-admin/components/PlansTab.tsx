import { Alert, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MSG, PLAN_ADMIN_MESSAGES, formatBRL, numberToCents, type AdminPlan } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { useAdminPlans, useDeletePlan, useSetPlanRetired } from '../api/plans-admin';
import { PlanFormModal } from './PlanFormModal';

type Pending = { kind: 'retire' | 'restore' | 'delete'; plan: AdminPlan } | null;

const QUESTIONS = {
  retire: (p: AdminPlan) =>
    `Retirar o plano ${p.name}? Ele deixa de aparecer na página inicial, no cadastro e em Planos. ` +
    (p.subscribers > 0 ? `As ${formatInteger(p.subscribers)} empresa(s) que o assinam continuam com ele.` : 'Nenhuma empresa o assina.'),
  restore: (p: AdminPlan) => `Oferecer novamente o plano ${p.name}? Ele volta a aparecer na página inicial, no cadastro e em Planos.`,
  delete: (p: AdminPlan) => `Excluir o plano ${p.name}? Ninguém o assina; isso não pode ser desfeito.`,
};

/** The plans table of "Planos": create, edit, retire (or offer again) and delete a plan nobody subscribes to. */
export function PlansTab() {
  const plans = useAdminPlans();
  const setRetired = useSetPlanRetired();
  const remove = useDeletePlan();
  const [editing, setEditing] = useState<{ plan: AdminPlan | null } | null>(null);
  const [pending, setPending] = useState<Pending>(null);

  const confirm = () => {
    if (!pending) return;
    const done = {
      onSuccess: () => {
        const message = pending.kind === 'delete' ? PLAN_ADMIN_MESSAGES.deleted : pending.kind === 'retire' ? PLAN_ADMIN_MESSAGES.retired : PLAN_ADMIN_MESSAGES.restored;
        notifications.show({ color: 'teal', title: MSG.successTitle, message });
      },
      onError: (error: unknown) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível alterar o plano.') }),
      onSettled: () => setPending(null),
    };
    if (pending.kind === 'delete') remove.mutate(pending.plan._id, done);
    else setRetired.mutate({ id: pending.plan._id, retired: pending.kind === 'retire' }, done);
  };

  const columns: DataTableColumn<AdminPlan>[] = [
    { key: 'name', header: 'Nome', render: (p) => p.name, sortValue: (p) => p.name },
    {
      key: 'cycles',
      header: 'Preços',
      render: (p) => (
        <Stack gap={0}>
          {p.cicle.map((c) => (
            <NoWrap key={c.id}>{`${formatBRL(numberToCents(c.value) ?? 0)}${c.name === 'Mensal' ? '/mês' : '/ano'}`}</NoWrap>
          ))}
        </Stack>
      ),
    },
    {
      key: 'max_devices',
      header: 'Dispositivos',
      render: (p) => (p.max_devices === null ? 'Sem limite' : `Até ${formatInteger(p.max_devices)}`),
      sortValue: (p) => p.max_devices,
    },
    { key: 'subscribers', header: 'Assinantes', render: (p) => formatInteger(p.subscribers), sortValue: (p) => p.subscribers },
    {
      key: 'status',
      header: 'Situação',
      render: (p) =>
        p.retired_at ? (
          <Badge color="gray" variant="light" title={`Retirado em ${formatDateTime(p.retired_at)}`} style={{ minWidth: 'max-content' }}>
            Retirado
          </Badge>
        ) : (
          <Badge color="teal" variant="light" style={{ minWidth: 'max-content' }}>
            Oferecido
          </Badge>
        ),
    },
    {
      key: 'actions',
      header: 'Ações',
      render: (p) => (
        <Group gap={6} wrap="nowrap">
          <Button size="xs" variant="light" onClick={() => setEditing({ plan: p })}>
            Editar
          </Button>
          {p.retired_at ? (
            <Button size="xs" variant="light" color="teal" onClick={() => setPending({ kind: 'restore', plan: p })}>
              Oferecer
            </Button>
          ) : (
            <Button size="xs" variant="light" color="orange" onClick={() => setPending({ kind: 'retire', plan: p })}>
              Retirar
            </Button>
          )}
          <Button
            size="xs"
            variant="light"
            color="red"
            disabled={p.subscribers > 0}
            title={p.subscribers > 0 ? PLAN_ADMIN_MESSAGES.hasSubscribers : undefined}
            onClick={() => setPending({ kind: 'delete', plan: p })}
          >
            Excluir
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Text size="sm" c="dimmed" maw={640}>
          Os planos oferecidos aparecem na página inicial, no cadastro e em Planos. Um plano retirado deixa de ser oferecido, mas quem já o
          assina continua com ele.
        </Text>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ plan: null })}>
          Novo plano
        </Button>
      </Group>
      {plans.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(plans.error, 'Não foi possível carregar os planos.')}
        </Alert>
      )}
      <DataTable
        rows={plans.data ?? []}
        columns={columns}
        rowKey={(p) => p._id}
        searchText={(p) => `${p.name} ${p.features.join(' ')}`}
        searchPlaceholder="Pesquisar planos"
        emptyText={plans.isError ? 'Não foi possível carregar os planos.' : PLAN_ADMIN_MESSAGES.empty}
        loading={plans.isPending && !plans.isError}
      />
      <PlanFormModal opened={editing !== null} plan={editing?.plan ?? null} onClose={() => setEditing(null)} />
      <ConfirmModal
        opened={pending !== null}
        title={pending?.kind === 'delete' ? 'Excluir plano' : pending?.kind === 'retire' ? 'Retirar plano' : 'Oferecer plano'}
        confirmLabel={pending?.kind === 'delete' ? 'Excluir' : pending?.kind === 'retire' ? 'Retirar' : 'Oferecer'}
        danger={pending?.kind !== 'restore'}
        loading={setRetired.isPending || remove.isPending}
        onConfirm={confirm}
        onClose={() => setPending(null)}
      >
        {pending ? QUESTIONS[pending.kind](pending.plan) : ''}
      </ConfirmModal>
    </Stack>
  );
}
