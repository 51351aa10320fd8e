import { Alert, Button, Group, Stack, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { can, LOCATION_MESSAGES, MSG, Profile, type LatLng, type Location } from '@sentinela/contract';
import { IconAlertCircle, IconPlus } from '@tabler/icons-react';
import { useMemo, useRef, useState, type ReactNode } from 'react';
import { CardLine } from '../../../components/CardLine';
import { ListCard, ListCards } from '../../../components/ListCard';
import { ConfirmModal } from '../../../components/ConfirmModal';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { ColourMemory } from '../../../components/device-state/colour-state';
import { ApiError } from '../../../lib/api-client';
import { formatInteger } from '../../../lib/format';
import { useRequiredSession } from '../../../lib/session';
import { useLocations } from '../api/list-locations';
import { usePlacedDevices } from '../api/list-placed-devices';
import { useRemoveLocation } from '../api/remove-location';
import { useLocationsLive } from '../live/use-locations-live';
import { LiveStatusBadge } from '../../../components/LiveStatusBadge';
import { deviceStates, shownDevices } from '../location-state';
import { useNow } from '../../../components/device-state/freshness';
import { LocationDevicesModal } from './LocationDevicesModal';
import { LocationFormModal } from './LocationFormModal';
import { LocationsMap } from './LocationsMap';
import { MappingStudiesSection } from './MappingStudiesSection';
import '../styles';

const searchText = (l: Location) => `${l.name} ${l.address ?? ''}`;

/** /locations "Locais" (A8): the table and the map of the enterprise's fixed sites, with their devices' live state. */
export function LocationsPage() {
  const { user } = useRequiredSession();
  const canManage = can(user.profile._id, 'locations:manage');
  const canMap = can(user.profile._id, 'mapping-studies:manage');
  const locations = useLocations();
  const devices = usePlacedDevices();
  const live = useLocationsLive();
  const remove = useRemoveLocation();
  const [memory] = useState(() => new ColourMemory());
  const colourStates = useMemo(() => deviceStates(memory, devices.data ?? []), [memory, devices.data]);
  const now = useNow();
  const states = useMemo(() => shownDevices(colourStates, devices.data ?? [], now), [colourStates, devices.data, now]);

  const [focus, setFocus] = useState<{ key: number; position: LatLng } | null>(null);
  const mapRef = useRef<HTMLDivElement>(null);
  const [form, setForm] = useState<{ opened: boolean; location: Location | null }>({ opened: false, location: null });
  const [devicesOf, setDevicesOf] = useState<Location | null>(null);
  const [removing, setRemoving] = useState<Location | null>(null);
  const [confirming, setConfirming] = useState(false);
  // GxP mode (ADR 0063): removing a location that holds devices unlinks them, so it goes with a reason.
  const reason = useChangeReason((removing?.devices ?? 0) > 0);

  const centreOn = (l: Location) => {
    if (l.latitude === null || l.longitude === null) return;
    setFocus((previous) => ({ key: (previous?.key ?? 0) + 1, position: [l.latitude!, l.longitude!] }));
    mapRef.current?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  };

  const confirmRemove = () => {
    if (!removing) return;
    const why = reason.take();
    if (!why) return;
    remove.mutate({ id: removing._id, ...why }, {
      onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: 'Local removido com sucesso!' }),
      onError: (error) =>
        notifications.show({ color: 'red', title: 'Erro!', message: error instanceof ApiError ? error.message : 'Não foi possível remover o local.' }),
      onSettled: () => setConfirming(false),
    });
  };

  // Ações of a row and of its card on a phone (one function for both); the row keeps them on one line, a card wraps them.
  const actionsOf = (l: Location) => (
    <>
      {canManage && (
        <Button size="xs" variant="light" onClick={() => setForm({ opened: true, location: l })}>
          Editar
        </Button>
      )}
      <Button size="xs" variant="default" onClick={() => centreOn(l)} disabled={l.latitude === null || l.longitude === null}>
        Local
      </Button>
      <Button size="xs" variant="default" onClick={() => setDevicesOf(l)}>
        Dispositivos
      </Button>
      {canManage && (
        <Button
          size="xs"
          variant="light"
          color="red"
          onClick={() => {
            setRemoving(l);
            reason.reset();
            setConfirming(true);
          }}
        >
          Remover
        </Button>
      )}
    </>
  );

  const showEnterprise = user.profile._id === Profile.SuperAdmin;
  const columns: DataTableColumn<Location>[] = [
    { key: 'name', header: 'Nome', render: (l) => l.name, sortValue: (l) => l.name },
    ...(showEnterprise
      ? [{ key: 'enterprise', header: 'Empresa', render: (l: Location) => l.enterprise.name, sortValue: (l: Location) => l.enterprise.name }]
      : []),
    { key: 'address', header: 'Endereço', render: (l) => l.address ?? '--' },
    { key: 'devices', header: 'Dispositivos', render: (l) => formatInteger(l.devices), sortValue: (l) => l.devices },
    {
      key: 'actions',
      header: 'Ações',
      render: (l) => (
        <Group gap="xs" wrap="nowrap">
          {actionsOf(l)}
        </Group>
      ),
    },
  ];

  return (
    <Stack>
      <Group justify="space-between" gap="sm">
        <Group gap="sm">
          <Title order={2}>Locais</Title>
          <LiveStatusBadge status={live} />
        </Group>
        {canManage && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setForm({ opened: true, location: null })}>
            Cadastrar Local
          </Button>
        )}
      </Group>
      {(locations.isError || devices.isError) && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {LOCATION_MESSAGES.loadFailed}
        </Alert>
      )}
      <div ref={mapRef}>
        <LocationsMap locations={locations.data ?? []} devices={devices.data ?? []} states={states} focus={focus} />
      </div>
      <DataTable
        rows={locations.data ?? []}
        columns={columns}
        rowKey={(l) => l._id}
        searchText={searchText}
        searchPlaceholder="Pesquisar Locais"
        emptyText={locations.isError ? LOCATION_MESSAGES.loadFailed : 'Nenhum registro de locais encontrado.'}
        loading={locations.isPending && !locations.isError}
        renderCards={(rows) => <LocationCards locations={rows} showEnterprise={showEnterprise} actions={actionsOf} />}
      />
      {canMap && <MappingStudiesSection user={user} locations={locations.data ?? []} />}
      <LocationFormModal
        opened={form.opened}
        location={form.location}
        chooseEnterprise={user.profile._id === Profile.SuperAdmin}
        onClose={() => setForm((previous) => ({ ...previous, opened: false }))}
      />
      <LocationDevicesModal
        location={devicesOf && (locations.data?.find((l) => l._id === devicesOf._id) ?? devicesOf)}
        devices={devices.data ?? []}
        states={states}
        canManage={canManage}
        onClose={() => setDevicesOf(null)}
      />
      <ConfirmModal
        opened={confirming}
        title="Remover local"
        confirmLabel="Remover"
        danger
        loading={remove.isPending}
        onConfirm={confirmRemove}
        extra={reason.field}
        onClose={() => setConfirming(false)}
      >
        {`Deseja remover o local ${removing?.name ?? ''}? Os grupos dele serão removidos e os dispositivos ficarão sem local (continuam monitorados).`}
      </ConfirmModal>
    </Stack>
  );
}

/**
 * Locais on a phone: one card per location instead of a table scrolled sideways, whose Editar, Local, Dispositivos
 * and Remover sat off screen. The same fields as the table's columns and the same actions as its row.
 */
function LocationCards({
  locations,
  showEnterprise,
  actions,
}: {
  locations: readonly Location[];
  showEnterprise: boolean;
  actions: (location: Location) => ReactNode;
}) {
  return (
    <ListCards testId="location-cards">
      {locations.map((l) => (
        <ListCard key={l._id} testId="location-card" title={l.name}>
          {showEnterprise && <CardLine label="Empresa">{l.enterprise.name}</CardLine>}
          <CardLine label="Endereço">{l.address ?? '--'}</CardLine>
          <CardLine label="Dispositivos">{formatInteger(l.devices)}</CardLine>
          <Group gap="xs" wrap="wrap">
            {actions(l)}
          </Group>
        </ListCard>
      ))}
    </ListCards>
  );
}
