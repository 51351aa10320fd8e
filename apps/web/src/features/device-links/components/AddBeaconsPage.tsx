import '@mantine/core/styles/Checkbox.css';
import { Alert, Anchor, Badge, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { BEACON_MESSAGES, MSG, Profile, type Device } from '@sentinela/contract';
import { IconAlertCircle, IconArrowLeft, IconFilter, IconSearch } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { useChangeReason } from '../../../components/compliance/use-change-reason';
import { errorMessage } from '../../../lib/api-client';
import { paths, withQuery } from '../../../lib/paths';
import { useRequiredSession } from '../../../lib/session';
import { useLinkEnterprise } from '../api/get-enterprise';
import { useLinkUser } from '../api/get-user';
import { useLinkDevices } from '../api/link-devices';
import { useLinkCandidates } from '../api/list-link-candidates';
import { matchesDeviceSearch, selectionCounter } from '../selection';

const columns: DataTableColumn<Device>[] = [
  { key: 'name', header: 'Nome', render: (d) => d.name, sortValue: (d) => d.name },
  { key: 'mac', header: 'Endereço Mac', render: (d) => <Text ff="monospace" size="sm">{d.mac}</Text>, sortValue: (d) => d.mac },
  { key: 'model', header: 'Número de série', render: (d) => d.model ?? '--' },
];

/**
 * /add-beacons "Vincular Dispositivos" (M6). Two ways in, told apart by their query:
 * - from Empresas: ?id={clientId}&user_id={ownerId}&numDevices={n}: the super admin chooses the enterprise's devices
 *   among those free or already there;
 * - from Usuários da empresa or /select-user: ?id={userId}&numDevices={n}&eID={clientId}: an administrator chooses
 *   the user's devices among the enterprise's.
 * The selection starts as today's links and is saved as the whole new set (to_update 0): unticking unlinks.
 */
export function AddBeaconsPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { user: me } = useRequiredSession();
  const id = params.get('id');
  const enterpriseOfUser = params.get('eID');
  const mode = enterpriseOfUser ? 'user' : 'client';
  const clientId = mode === 'user' ? enterpriseOfUser : id;
  const allowed = mode === 'user' || me.profile._id === Profile.SuperAdmin;

  const candidates = useLinkCandidates(allowed && clientId ? { kind: mode, clientId } : null);
  const targetUser = useLinkUser(mode === 'user' ? id : null);
  const enterprise = useLinkEnterprise(mode === 'client' && allowed ? id : null);
  const link = useLinkDevices();

  const rows = useMemo(() => {
    const all = candidates.data ?? [];
    // Into an enterprise: the free devices and its own (another enterprise's device must leave it first).
    return mode === 'client' ? all.filter((d) => d.enterprise === null || d.enterprise._id === clientId) : all;
  }, [candidates.data, mode, clientId]);

  const initial = useMemo<ReadonlySet<string> | null>(() => {
    if (!candidates.data) return null;
    if (mode === 'client') return new Set(rows.filter((d) => d.enterprise?._id === clientId).map((d) => d._id));
    return targetUser.data ? new Set(targetUser.data.available_devices) : null;
  }, [candidates.data, rows, mode, clientId, targetUser.data]);

  const [chosen, setChosen] = useState<ReadonlySet<string> | null>(null);
  const selected = chosen ?? initial ?? new Set<string>();
  const [typed, setTyped] = useState('');
  const [search, setSearch] = useState('');
  const [onlySelected, setOnlySelected] = useState(false);

  const visible = rows.filter((d) => matchesDeviceSearch(d, search) && (!onlySelected || selected.has(d._id)));
  const targetName = mode === 'user' ? targetUser.data?.name : enterprise.data?.name;
  const back =
    mode === 'user'
      ? { to: withQuery(paths.enterpriseUsers, { id: clientId }), label: 'Usuários da empresa' }
      : { to: paths.enterprises, label: 'Empresas' };
  // Links of devices are GxP records (ADR 0061): the new set goes with its reason, asked above the list.
  const reason = useChangeReason();
  const loadFailed = candidates.isError || targetUser.isError || enterprise.isError;

  const save = () => {
    if (!clientId || !id) return;
    const why = reason.take();
    if (!why) return;
    const devices = rows.filter((d) => selected.has(d._id)).map((d) => d._id);
    link.mutate(
      mode === 'client'
        ? { kind: 'client', body: { devices, to_update: 0, client_id: clientId, ...why } }
        : { kind: 'user', body: { devices, to_update: 0, user_id: id, ...why } },
      {
        onSuccess: () => {
          notifications.show({ color: 'teal', title: MSG.successTitle, message: BEACON_MESSAGES.linked });
          void navigate(me.profile._id === Profile.SuperAdmin ? withQuery(paths.selectUser, { id: clientId }) : paths.selectUser);
        },
      },
    );
  };

  return (
    <Stack>
      <Anchor component={Link} to={back.to} size="sm">
        <Group gap={4} component="span">
          <IconArrowLeft size={14} aria-hidden />
          {back.label}
        </Group>
      </Anchor>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={2}>
          <Title order={2}>Vincular Dispositivos</Title>
          {targetName && (
            <Text c="dimmed" size="sm">
              {mode === 'user' ? `Dispositivos do usuário ${targetName}` : `Dispositivos da empresa ${targetName}`}
            </Text>
          )}
        </Stack>
        <Button onClick={save} loading={link.isPending} disabled={!allowed || !clientId || !id || initial === null}>
          Salvar
        </Button>
      </Group>

      {!allowed && (
        <Alert color="red" title="Acesso negado" icon={<IconAlertCircle />}>
          Só o super administrador vincula dispositivos a uma empresa.
        </Alert>
      )}
      {allowed && (!clientId || !id) && (
        <Alert color="yellow" icon={<IconAlertCircle />}>
          Abra esta tela pelo botão Dispositivos de uma empresa ou de um usuário.
        </Alert>
      )}
      {loadFailed && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(candidates.error ?? targetUser.error ?? enterprise.error, 'Não foi possível encontrar dispositivos')}
        </Alert>
      )}
      {allowed && clientId && id && reason.field}
      {link.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(link.error, 'Não foi possível vincular os dispositivos.')}
        </Alert>
      )}

      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <form
            role="search"
            onSubmit={(event) => {
              event.preventDefault();
              setSearch(typed);
            }}
          >
            <Group gap="xs" align="flex-end" wrap="nowrap">
              <TextInput
                label="Buscar dispositivo"
                placeholder="MAC ou nome"
                leftSection={<IconSearch size={16} />}
                value={typed}
                onChange={(event) => setTyped(event.currentTarget.value)}
                style={{ flex: 1 }}
                maw={420}
              />
              <Button type="submit" variant="default" leftSection={<IconFilter size={16} />}>
                Filtrar
              </Button>
            </Group>
          </form>
          <Group justify="space-between" gap="sm">
            <Checkbox label="Filtrar selecionados" checked={onlySelected} onChange={(event) => setOnlySelected(event.currentTarget.checked)} />
            <Badge variant="light" color="teal" size="lg" style={{ textTransform: 'none' }} data-testid="selection-counter">
              {selectionCounter(selected.size)}
            </Badge>
          </Group>
        </Stack>
      </Paper>

      <DataTable
        rows={visible}
        columns={columns}
        rowKey={(d) => d._id}
        pageSize={Math.max(visible.length, 1)}
        emptyText="Nada encontrado..."
        loading={allowed && !!clientId && initial === null && !loadFailed}
        selection={{ selected, onChange: setChosen, rowLabel: (d) => `Selecionar ${d.name} (${d.mac})` }}
      />
    </Stack>
  );
}
