import { Badge, Button, Card, Group, SimpleGrid, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { TRAVEL_STATUS_NAMES, TRAVEL_TRANSITIONS, TravelStatus, type Travel, type TravelStatusId } from '@sentinela/contract';
import { IconCpu, IconMap2, IconPencil, IconPlayerPause, IconPlayerPlay, IconPlayerStop, IconReport } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { lazy, useCallback, useMemo, useState, type ReactNode } from 'react';
import { OnceOpened } from '../../../components/OnceOpened';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { RetryAlert } from '../../../components/QueryStatus';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY, formatShortDateTime } from '../../../lib/format';
import { useReportExport } from '../../../components/report-export/export-provider';
import { useSetTravelStatus } from '../api/set-travel-status';
import { travelsQueryOptions } from '../api/list-travels';
import { STATUS_COLORS, TRAVEL_MESSAGES } from '../messages';

interface RoutesTableProps {
  selectedId: string | null;
  onRoute: (travel: Travel) => void;
  onDevices: (travel: Travel) => void;
  /** Editing a travel not finished (T8), for profiles with 'travels:manage'. */
  onEdit: (travel: Travel) => void;
  /** Status actions and Editar (T8): shown to profiles with 'travels:manage'. */
  canManage: boolean;
}

// Mantine's Modal (focus trap, overlay, scroll area) is not needed to paint the table (ADR 0086).
const ConfirmModal = lazy(() => import('../../../components/ConfirmModal').then((module) => ({ default: module.ConfirmModal })));

const isStatus = (value: number): value is TravelStatusId => value in TRAVEL_STATUS_NAMES;

export function StatusBadge({ travel }: { travel: Pick<Travel, 'status' | 'status_name'> }) {
  return (
    <Badge color={STATUS_COLORS[travel.status] ?? 'gray'} variant="light" data-testid="travel-status" style={{ minWidth: 'max-content' }}>
      {travel.status_name || (isStatus(travel.status) ? TRAVEL_STATUS_NAMES[travel.status] : EMPTY)}
    </Badge>
  );
}

interface StatusAction {
  to: TravelStatusId;
  label: string;
  icon: ReactNode;
  color: string;
}

/** The buttons of a row's status, per TRAVEL_TRANSITIONS: Iniciar, Pausar, Retomar, Finalizar. */
export function statusActions(status: number): StatusAction[] {
  if (!isStatus(status)) return [];
  return TRAVEL_TRANSITIONS[status].map((to) => {
    if (to === TravelStatus.InProgress) {
      return status === TravelStatus.Paused
        ? { to, label: 'Retomar', icon: <IconPlayerPlay size={14} />, color: 'blue' }
        : { to, label: 'Iniciar', icon: <IconPlayerPlay size={14} />, color: 'blue' };
    }
    if (to === TravelStatus.Paused) return { to, label: 'Pausar', icon: <IconPlayerPause size={14} />, color: 'yellow' };
    return { to, label: 'Finalizar', icon: <IconPlayerStop size={14} />, color: 'red' };
  });
}

const searchText = (travel: Travel) =>
  [travel.code, travel.status_name, travel.user?.name, travel.origin.address, travel.destiny.address, travel.enterprise?.name]
    .filter(Boolean)
    .join(' ');

/** Lista de viagens (T1): searchable, sortable, paginated, with expandable rows and the chosen row highlighted. */
export function RoutesTable({ selectedId, onRoute, onDevices, onEdit, canManage }: RoutesTableProps) {
  const travels = useQuery(travelsQueryOptions());
  const setStatus = useSetTravelStatus();
  const [finishing, setFinishing] = useState<Travel | null>(null);
  // Relatórios: the whole travel's report, a PDF (GET /api/travels/{id}/html, R1).
  const reports = useReportExport();

  const { mutate } = setStatus;
  const changeStatus = useCallback(
    (travel: Travel, to: TravelStatusId) =>
      mutate(
        { id: travel._id, status: to },
        {
          onSuccess: () =>
            notifications.show({
              color: 'teal',
              title: TRAVEL_MESSAGES.successTitle,
              message: `Viagem ${travel.code}: ${TRAVEL_STATUS_NAMES[to]}.`,
            }),
          onError: (error) =>
            notifications.show({ color: 'red', title: TRAVEL_MESSAGES.errorTitle, message: errorMessage(error, TRAVEL_MESSAGES.statusError) }),
          onSettled: () => setFinishing(null),
        },
      ),
    [mutate],
  );

  const actionsOf = useCallback(
    (t: Travel) => (
      <Group gap={6} wrap="wrap">
        <Button size="compact-sm" variant="light" leftSection={<IconMap2 size={14} />} onClick={() => onRoute(t)}>
          Trajeto
        </Button>
        <Button size="compact-sm" variant="light" leftSection={<IconCpu size={14} />} onClick={() => onDevices(t)}>
          Dispositivos
        </Button>
        {reports && (
          <Button
            size="compact-sm"
            variant="light"
            leftSection={<IconReport size={14} />}
            loading={reports.isExporting({ kind: 'travel', travelId: t._id }, 'pdf')}
            onClick={() => void reports.exportReport({ kind: 'travel', travelId: t._id }, 'pdf')}
          >
            Relatórios
          </Button>
        )}
        {canManage && t.status !== TravelStatus.Finished && (
          <Button size="compact-sm" variant="subtle" leftSection={<IconPencil size={14} />} onClick={() => onEdit(t)}>
            Editar
          </Button>
        )}
        {canManage &&
          statusActions(t.status).map((action) => (
            <Button
              key={action.to}
              size="compact-sm"
              variant="subtle"
              color={action.color}
              leftSection={action.icon}
              loading={setStatus.isPending && setStatus.variables?.id === t._id && setStatus.variables.status === action.to}
              onClick={() => (action.to === TravelStatus.Finished ? setFinishing(t) : changeStatus(t, action.to))}
            >
              {action.label}
            </Button>
          ))}
      </Group>
    ),
    [onRoute, onDevices, onEdit, canManage, changeStatus, setStatus.isPending, setStatus.variables, reports],
  );

  const columns = useMemo<DataTableColumn<Travel>[]>(
    () => [
      { key: 'status', header: 'Status', render: (t) => <StatusBadge travel={t} />, sortValue: (t) => t.status_name },
      { key: 'user', header: 'Responsável', render: (t) => t.user?.name ?? EMPTY, sortValue: (t) => t.user?.name ?? null },
      {
        key: 'destiny',
        header: 'Destino',
        render: (t) => (
          <Text size="sm" lineClamp={2} maw={320} title={t.destiny.address}>
            {t.destiny.address}
          </Text>
        ),
        sortValue: (t) => t.destiny.address,
      },
      { key: 'actions', header: 'Ações', render: actionsOf },
    ],
    [actionsOf],
  );

  return (
    <>
      {travels.isError ? (
        <RetryAlert title={TRAVEL_MESSAGES.errorTitle} message={TRAVEL_MESSAGES.listLoadError} onRetry={() => void travels.refetch()} retrying={travels.isFetching} />
      ) : (
        <DataTable
          rows={travels.data ?? []}
          columns={columns}
          rowKey={(t) => t._id}
          searchText={searchText}
          searchPlaceholder="Pesquisar viagens"
          emptyText={TRAVEL_MESSAGES.listEmpty}
          loading={travels.isPending}
          pageSize={10}
          selectedKey={selectedId}
          expandedContent={(t) => <TravelDetails travel={t} />}
          renderCards={(page) => <TravelCards travels={page} selectedId={selectedId} actions={actionsOf} />}
        />
      )}
      <OnceOpened opened={finishing !== null}>
        <ConfirmModal
          opened={finishing !== null}
          title="Finalizar viagem"
          confirmLabel="Finalizar"
          danger
          loading={setStatus.isPending}
          onConfirm={() => finishing && changeStatus(finishing, TravelStatus.Finished)}
          onClose={() => setFinishing(null)}
        >
          {finishing ? `Finalizar a viagem ${finishing.code}? Uma viagem finalizada não pode ser retomada.` : ''}
        </ConfirmModal>
      </OnceOpened>
    </>
  );
}

function Detail({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{value}</Text>
    </div>
  );
}

/** The expanded row: origin, destination, tracking code, dates (DD/MM HH:mm:ss). */
function TravelDetails({ travel }: { travel: Travel }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} spacing="sm" verticalSpacing="xs" data-testid="travel-details">
      <Detail label="Origem" value={travel.origin.address} />
      <Detail label="Destino" value={travel.destiny.address} />
      <Detail label="Código do localizador" value={<Text span ff="monospace" fw={700}>{travel.code}</Text>} />
      {travel.enterprise && <Detail label="Empresa" value={travel.enterprise.name} />}
      <Detail label="Criada em" value={formatShortDateTime(travel.created_at)} />
      <Detail label="Iniciada em" value={formatShortDateTime(travel.started_at)} />
      <Detail label="Finalizada em" value={formatShortDateTime(travel.finished_at)} />
      <Detail label="Dispositivos" value={travel.devices.map((d) => d.name).join(', ') || EMPTY} />
    </SimpleGrid>
  );
}

/**
 * Lista de viagens on a phone: one card per travel of the page instead of a table that scrolls sideways with its
 * actions out of sight. A card carries what the table and its expanded row say (code, status, person, origin,
 * destination, dates, devices) and the same actions; the chosen travel's card is outlined.
 */
function TravelCards({ travels, selectedId, actions }: { travels: readonly Travel[]; selectedId: string | null; actions: (travel: Travel) => ReactNode }) {
  return (
    <Stack gap="sm" data-testid="travel-cards">
      {travels.map((t) => {
        const selected = t._id === selectedId;
        return (
          <Card
            key={t._id}
            withBorder
            radius="md"
            padding="sm"
            data-testid="travel-card"
            data-code={t.code}
            aria-current={selected || undefined}
            bg={selected ? 'teal.0' : undefined}
            style={selected ? { borderColor: 'var(--mantine-color-teal-6)' } : undefined}
          >
            <Stack gap={6}>
              <Group justify="space-between" wrap="nowrap" gap="xs">
                <Text ff="monospace" fw={700}>
                  {t.code}
                </Text>
                <StatusBadge travel={t} />
              </Group>
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  Responsável:{' '}
                </Text>
                {t.user?.name ?? EMPTY}
              </Text>
              <Detail label="Origem" value={t.origin.address} />
              <Detail label="Destino" value={t.destiny.address} />
              {t.enterprise && <Detail label="Empresa" value={t.enterprise.name} />}
              <Text size="xs" c="dimmed">
                {t.finished_at
                  ? `Finalizada em ${formatShortDateTime(t.finished_at)}`
                  : t.started_at
                    ? `Iniciada em ${formatShortDateTime(t.started_at)}`
                    : `Criada em ${formatShortDateTime(t.created_at)}`}
              </Text>
              <Text size="xs" c="dimmed">
                Dispositivos: {t.devices.map((d) => d.name).join(', ') || EMPTY}
              </Text>
              {actions(t)}
            </Stack>
          </Card>
        );
      })}
    </Stack>
  );
}
