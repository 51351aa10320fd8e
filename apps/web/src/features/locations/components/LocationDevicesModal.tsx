import '@mantine/core/styles/Combobox.css';
import '@mantine/core/styles/Table.css';
import { ActionIcon, Alert, Badge, Button, Divider, Group, Modal, Select, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import type { DeviceGroup, Location, PlacedDevice } from '@sentinela/contract';
import { IconAlertCircle, IconCheck, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useState } from 'react';
import { COLOUR_STATE_COLOR, COLOUR_STATE_LABELS } from '../../../components/device-state/colour-state';
import { NOTHING_SHOWN, type DeviceShown } from '../location-state';
import { ApiError } from '../../../lib/api-client';
import { formatTemperature, pluralize } from '../../../lib/format';
import { useDeviceGroups } from '../api/list-device-groups';
import { useChangeReason, type ChangeReason } from '../../../components/compliance/use-change-reason';
import { usePlaceDevice } from '../api/place-device';
import { useRemoveDeviceGroup } from '../api/remove-device-group';
import { useSaveDeviceGroup } from '../api/save-device-group';

interface LocationDevicesModalProps {
  location: Location | null;
  devices: readonly PlacedDevice[];
  states: ReadonlyMap<string, DeviceShown>;
  /** Admins manage groups and place devices; others only look. */
  canManage: boolean;
  onClose: () => void;
}

const NO_GROUP = '';
const errorText = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);
const fail = (error: unknown, fallback: string) => notifications.show({ color: 'red', title: 'Erro!', message: errorText(error, fallback) });

/** A location's device groups and devices: create, rename and remove groups; place devices in it and in a group. */
export function LocationDevicesModal({ location, devices, states, canManage, onClose }: LocationDevicesModalProps) {
  return (
    <Modal opened={location !== null} onClose={onClose} title={location ? `Dispositivos do local ${location.name}` : ''} size="xl" closeOnClickOutside={false}>
      {location && <LocationDevices location={location} devices={devices} states={states} canManage={canManage} />}
    </Modal>
  );
}

function LocationDevices({ location, devices, states, canManage }: Omit<LocationDevicesModalProps, 'onClose' | 'location'> & { location: Location }) {
  const groups = useDeviceGroups(location._id);
  const place = usePlaceDevice();
  // GxP mode (ADR 0063): a device's place is one of its links; each placement here, and removing a group that holds
  // devices, goes with the reason typed once at the top (kept for the next changes of this modal).
  const reason = useChangeReason();
  const here = devices.filter((d) => d.location_id === location._id);
  // Only devices of the location's enterprise can go there (the server refuses others).
  const candidates = devices.filter((d) => d.location_id !== location._id && d.enterprise_id === location.enterprise._id);
  const [adding, setAdding] = useState<string | null>(null);
  const [addingGroup, setAddingGroup] = useState<string>(NO_GROUP);
  const groupOptions = [{ value: NO_GROUP, label: 'Sem grupo' }, ...(groups.data ?? []).map((g) => ({ value: g._id, label: g.name }))];

  const moveTo = (device: PlacedDevice, locationId: string | null, groupId: string | null, done?: () => void) => {
    const why = reason.take();
    if (!why) return;
    place.mutate(
      { deviceId: device._id, locationId, groupId, ...why },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: 'Sucesso!', message: locationId ? `${device.name} salvo no local.` : `${device.name} retirado do local.` });
          done?.();
        },
        onError: (error) => fail(error, 'Não foi possível salvar o dispositivo.'),
      },
    );
  };

  return (
    <Stack gap="md">
      {canManage && reason.field}
      <GroupsSection location={location} groups={groups.data ?? []} loading={groups.isPending} failed={groups.isError} canManage={canManage} reason={reason} />
      <Divider />
      <Stack gap="xs">
        <Text fw={600}>Dispositivos</Text>
        {here.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nenhum dispositivo neste local.
          </Text>
        ) : (
          <Table.ScrollContainer type="native" minWidth={520}>
            <Table verticalSpacing="xs" data-testid="location-devices-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Nome</Table.Th>
                  <Table.Th>Temperatura</Table.Th>
                  <Table.Th>Grupo</Table.Th>
                  {canManage && <Table.Th>Ações</Table.Th>}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {here.map((device) => {
                  const { state, silence } = states.get(device._id) ?? NOTHING_SHOWN;
                  return (
                    <Table.Tr key={device._id}>
                      <Table.Td>
                        <Text size="sm">{device.name}</Text>
                        <Text size="xs" c="dimmed">
                          {device.mac}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={COLOUR_STATE_COLOR[state]} title={COLOUR_STATE_LABELS[state]} data-state={state}>
                          {silence ? silence.label : formatTemperature(device.temperature)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {canManage ? (
                          <Select
                            aria-label={`Grupo de ${device.name}`}
                            data={groupOptions}
                            value={device.group_id ?? NO_GROUP}
                            onChange={(value) => moveTo(device, location._id, value || null)}
                            allowDeselect={false}
                            size="xs"
                            comboboxProps={{ withinPortal: true }}
                          />
                        ) : (
                          <Text size="sm">{groups.data?.find((g) => g._id === device.group_id)?.name ?? 'Sem grupo'}</Text>
                        )}
                      </Table.Td>
                      {canManage && (
                        <Table.Td>
                          <Button size="xs" variant="light" color="red" onClick={() => moveTo(device, null, null)}>
                            Retirar
                          </Button>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {canManage && (
          <Group align="flex-end" gap="xs">
            <Select
              label="Adicionar dispositivo"
              placeholder={candidates.length ? 'Selecione um dispositivo' : 'Nenhum dispositivo disponível'}
              data={candidates.map((d) => ({ value: d._id, label: d.location_id ? `${d.name} (${d.mac}, em outro local)` : `${d.name} (${d.mac})` }))}
              value={adding}
              onChange={setAdding}
              searchable
              nothingFoundMessage="Nada encontrado..."
              style={{ flex: 2, minWidth: 220 }}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="Grupo"
              data={groupOptions}
              value={addingGroup}
              onChange={(value) => setAddingGroup(value ?? NO_GROUP)}
              allowDeselect={false}
              style={{ flex: 1, minWidth: 140 }}
              comboboxProps={{ withinPortal: true }}
            />
            <Button
              disabled={!adding}
              loading={place.isPending}
              onClick={() => {
                const device = candidates.find((d) => d._id === adding);
                if (device) moveTo(device, location._id, addingGroup || null, () => setAdding(null));
              }}
            >
              Adicionar ao local
            </Button>
          </Group>
        )}
      </Stack>
    </Stack>
  );
}

function GroupsSection({
  location,
  groups,
  loading,
  failed,
  canManage,
  reason,
}: {
  location: Location;
  groups: DeviceGroup[];
  loading: boolean;
  failed: boolean;
  canManage: boolean;
  reason: ChangeReason;
}) {
  const save = useSaveDeviceGroup();
  const remove = useRemoveDeviceGroup();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ id: string; name: string } | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);

  const create = () =>
    save.mutate(
      { locationId: location._id, id: null, name },
      { onSuccess: () => setName(''), onError: (error) => fail(error, 'Não foi possível salvar o grupo.') },
    );

  return (
    <Stack gap="xs">
      <Text fw={600}>Grupos</Text>
      {failed && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          Não foi possível carregar os grupos.
        </Alert>
      )}
      {!loading && !failed && groups.length === 0 && (
        <Text size="sm" c="dimmed">
          Nenhum grupo neste local.
        </Text>
      )}
      {groups.map((group) => (
        <Group key={group._id} gap="xs" wrap="nowrap" data-testid="device-group">
          {editing?.id === group._id ? (
            <>
              <TextInput
                aria-label="Novo nome do grupo"
                value={editing.name}
                onChange={(e) => setEditing({ id: group._id, name: e.currentTarget.value })}
                size="xs"
                maxLength={80}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="light"
                aria-label="Salvar nome"
                loading={save.isPending}
                onClick={() =>
                  save.mutate(
                    { locationId: location._id, id: group._id, name: editing.name },
                    { onSuccess: () => setEditing(null), onError: (error) => fail(error, 'Não foi possível salvar o grupo.') },
                  )
                }
              >
                <IconCheck size={16} />
              </ActionIcon>
              <ActionIcon variant="default" aria-label="Cancelar" onClick={() => setEditing(null)}>
                <IconX size={16} />
              </ActionIcon>
            </>
          ) : (
            <>
              <Text size="sm" style={{ flex: 1 }}>
                {group.name}{' '}
                <Text span size="xs" c="dimmed">
                  ({pluralize(group.devices, 'dispositivo', 'dispositivos')})
                </Text>
              </Text>
              {canManage && removing !== group._id && (
                <>
                  <Tooltip label="Renomear">
                    <ActionIcon variant="subtle" aria-label={`Renomear ${group.name}`} onClick={() => setEditing({ id: group._id, name: group.name })}>
                      <IconPencil size={16} />
                    </ActionIcon>
                  </Tooltip>
                  <Tooltip label="Remover">
                    <ActionIcon variant="subtle" color="red" aria-label={`Remover ${group.name}`} onClick={() => setRemoving(group._id)}>
                      <IconTrash size={16} />
                    </ActionIcon>
                  </Tooltip>
                </>
              )}
              {removing === group._id && (
                <Group gap={4} wrap="nowrap">
                  <Text size="xs">Remover o grupo? Os dispositivos ficam no local, sem grupo.</Text>
                  <Button
                    size="xs"
                    color="red"
                    loading={remove.isPending}
                    onClick={() => {
                      // An empty group unlinks nothing: no reason asked for it.
                      const why = group.devices > 0 ? reason.take() : {};
                      if (!why) return;
                      remove.mutate(
                        { locationId: location._id, id: group._id, ...why },
                        { onSettled: () => setRemoving(null), onError: (error) => fail(error, 'Não foi possível remover o grupo.') },
                      );
                    }}
                  >
                    Remover
                  </Button>
                  <Button size="xs" variant="default" onClick={() => setRemoving(null)}>
                    Cancelar
                  </Button>
                </Group>
              )}
            </>
          )}
        </Group>
      ))}
      {canManage && (
        <Group gap="xs" align="flex-end">
          <TextInput
            label="Novo grupo"
            placeholder="Ex.: Geladeira de vacinas"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            maxLength={80}
            style={{ flex: 1, minWidth: 200 }}
          />
          <Button variant="light" onClick={create} loading={save.isPending} disabled={!name.trim()}>
            Adicionar grupo
          </Button>
        </Group>
      )}
    </Stack>
  );
}
