import '@mantine/core/styles/Combobox.css';
import { Anchor, Group, MultiSelect, Select, Text, TextInput } from '@mantine/core';
import { CreateMonitorLinkBody, type CreatedMonitorLink, type SessionUser } from '@sentinela/contract';
import { IconExternalLink } from '@tabler/icons-react';
import { useState } from 'react';
import { useEnterprises } from '../../../components/EnterprisePicker';
import { FormModal } from '../../../components/FormModal';
import { ShownOnceSecret } from '../../../components/ShownOnceSecret';
import { errorMessage } from '../../../lib/api-client';
import { useCreateMonitorLink, useLinkableDevices, useLinkableTravels } from '../api/monitor-links';

interface CreateMonitorLinkModalProps {
  opened: boolean;
  onClose: () => void;
  user: Pick<SessionUser, '_id' | 'profile'>;
  /** The super admin chooses the link's enterprise; an enterprise admin's link is its enterprise's. */
  choosesEnterprise: boolean;
}

const DAY_MS = 24 * 60 * 60 * 1000;
const VALIDITY = [
  { value: '1', label: '1 dia' },
  { value: '7', label: '7 dias' },
  { value: '30', label: '30 dias' },
  { value: '90', label: '90 dias' },
  { value: '365', label: '1 ano' },
];

/**
 * Criar link: a name, what it shows (travels and/or devices of one enterprise) and how long it lasts; then its
 * address, shown this once. Closes only by its buttons.
 */
export function CreateMonitorLinkModal({ opened, onClose, user, choosesEnterprise }: CreateMonitorLinkModalProps) {
  const create = useCreateMonitorLink();
  const [name, setName] = useState('');
  const [enterpriseId, setEnterpriseId] = useState<string | null>(null);
  const [travelIds, setTravelIds] = useState<string[]>([]);
  const [deviceIds, setDeviceIds] = useState<string[]>([]);
  const [days, setDays] = useState<string | null>('30');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setName('');
    setEnterpriseId(null);
    setTravelIds([]);
    setDeviceIds([]);
    setDays('30');
    setProblem(null);
    create.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const expiresAt = new Date(Date.now() + Number(days ?? '30') * DAY_MS).toISOString();
    const parsed = CreateMonitorLinkBody.safeParse({
      name,
      enterprise_id: choosesEnterprise ? enterpriseId : undefined,
      travel_ids: travelIds,
      device_ids: deviceIds,
      expires_at: expiresAt,
    });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    if (choosesEnterprise && !enterpriseId) return setProblem('Informe a empresa do link.');
    if (travelIds.length === 0 && deviceIds.length === 0) return setProblem('Escolha ao menos uma viagem ou um dispositivo.');
    setProblem(null);
    create.mutate(parsed.data);
  };

  const created = create.data;
  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Criar link de monitoramento"
      size="lg"
      onSubmit={submit}
      submitLabel="Criar link"
      pending={create.isPending}
      error={problem ?? (create.isError ? errorMessage(create.error, 'Não foi possível criar o link.') : null)}
      done={created ? <CreatedLink link={created} onDone={close} /> : undefined}
      doneTitle="Link criado"
    >
      <TextInput
        label="Nome"
        placeholder="Ex.: Sala de controle — TV 1"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        maxLength={80}
        withAsterisk
        data-autofocus
      />
      {choosesEnterprise && (
        <EnterpriseSelect
          value={enterpriseId}
          onChange={(id) => {
            setEnterpriseId(id);
            setTravelIds([]);
            setDeviceIds([]);
          }}
        />
      )}
      <ScopePickers
        user={user}
        enterpriseId={choosesEnterprise ? enterpriseId : null}
        travelIds={travelIds}
        deviceIds={deviceIds}
        onTravels={setTravelIds}
        onDevices={setDeviceIds}
        disabled={choosesEnterprise && !enterpriseId}
      />
      <Select label="Validade" data={VALIDITY} value={days} onChange={setDays} allowDeselect={false} withAsterisk comboboxProps={{ withinPortal: true }} />
      <Text size="xs" c="dimmed">
        Quem tiver o link vê, sem entrar no sistema, as leituras e os alarmes do que foi escolhido, até a validade ou até o link ser
        revogado. Cada acesso fica no log de acesso.
      </Text>
    </FormModal>
  );
}

interface ScopePickersProps {
  user: Pick<SessionUser, '_id' | 'profile'>;
  /** The super admin's chosen enterprise: only its travels and devices are offered. */
  enterpriseId: string | null;
  travelIds: string[];
  deviceIds: string[];
  onTravels: (ids: string[]) => void;
  onDevices: (ids: string[]) => void;
  disabled: boolean;
}

function ScopePickers({ user, enterpriseId, travelIds, deviceIds, onTravels, onDevices, disabled }: ScopePickersProps) {
  const travels = useLinkableTravels();
  const devices = useLinkableDevices(user);
  const travelOptions = (travels.data ?? [])
    .filter((t) => !enterpriseId || t.enterprise?._id === enterpriseId)
    .map((t) => ({ value: t._id, label: `${t.code} — ${t.origin.address} → ${t.destiny.address} (${t.status_name})` }));
  const deviceOptions = (devices.data ?? [])
    .filter((d) => !enterpriseId || d.enterprise?._id === enterpriseId)
    .map((d) => ({ value: d._id, label: `${d.name} (${d.mac})` }));
  return (
    <>
      <MultiSelect
        label="Viagens"
        placeholder={travels.isPending ? 'Carregando...' : 'Escolha as viagens'}
        data={travelOptions}
        value={travelIds}
        onChange={onTravels}
        searchable
        clearable
        disabled={disabled}
        nothingFoundMessage="Nenhuma viagem encontrada"
        error={travels.isError ? 'Não foi possível carregar as viagens.' : undefined}
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label="Dispositivos"
        placeholder={devices.isPending ? 'Carregando...' : 'Escolha os dispositivos'}
        data={deviceOptions}
        value={deviceIds}
        onChange={onDevices}
        searchable
        clearable
        disabled={disabled}
        nothingFoundMessage="Nenhum dispositivo encontrado"
        error={devices.isError ? 'Não foi possível carregar os dispositivos.' : undefined}
        comboboxProps={{ withinPortal: true }}
      />
    </>
  );
}

function EnterpriseSelect({ value, onChange }: { value: string | null; onChange: (id: string | null) => void }) {
  const enterprises = useEnterprises();
  return (
    <Select
      label="Empresa"
      placeholder={enterprises.isPending ? 'Carregando...' : 'Escolha a empresa'}
      data={(enterprises.data ?? []).map((e) => ({ value: e._id, label: e.name }))}
      value={value}
      onChange={onChange}
      searchable
      withAsterisk
      nothingFoundMessage="Nada encontrado..."
      error={enterprises.isError ? 'Não foi possível carregar as empresas.' : undefined}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** The link's address, once: to open on the wall display. */
function CreatedLink({ link, onDone }: { link: CreatedMonitorLink; onDone: () => void }) {
  return (
    <ShownOnceSecret
      title="Copie o link agora"
      warning="Este endereço não será mostrado novamente. Abra-o na tela do monitoramento; se ele se perder, revogue este link e crie outro."
      label="Endereço do monitoramento"
      value={link.url}
      testId="monitor-link-url"
      onDone={onDone}
      aside={
        <Anchor href={link.url} target="_blank" rel="noopener noreferrer" size="sm">
          <Group gap={4} wrap="nowrap">
            <IconExternalLink size={16} aria-hidden />
            Abrir monitoramento
          </Group>
        </Anchor>
      }
    />
  );
}
