import '@mantine/core/styles/Combobox.css';
import { MultiSelect, Select, SimpleGrid, Text, TextInput } from '@mantine/core';
import { CreateMappingStudyBody, MAPPING_STUDY_MAX_DAYS, MAPPING_STUDY_MAX_SENSORS, type Location, type SessionUser } from '@sentinela/contract';
import { useState } from 'react';
import { FormModal } from '../../../components/FormModal';
import { errorMessage } from '../../../lib/api-client';
import { useCreateMappingStudy, useStudyDevices } from '../api/mapping-studies';

interface MappingStudyFormModalProps {
  opened: boolean;
  onClose: () => void;
  user: Pick<SessionUser, '_id' | 'profile'>;
  locations: readonly Location[];
}

/** A datetime-local value (the browser's wall clock) as an instant with its offset, or the text as typed. */
function instantOf(value: string): string {
  const date = new Date(value);
  return value && !Number.isNaN(date.getTime()) ? date.toISOString() : value;
}

/** A typed temperature: a decimal comma or point; anything else goes to the schema as text (and is refused in pt-BR). */
function temperatureOf(value: string): unknown {
  const text = value.trim();
  if (text === '') return undefined;
  return /^[+-]?\d+(?:[.,]\d+)?$/.test(text) ? Number(text.replace(',', '.')) : text;
}

/**
 * Novo estudo de mapeamento térmico (X12, ADR 0083): a name, the location it qualifies (optional), its sensors, the
 * period and the temperature range. Checked here with the contract's schema (the same pt-BR messages as the
 * server), then sent; the report is generated in the background and appears in the list.
 */
export function MappingStudyFormModal({ opened, onClose, user, locations }: MappingStudyFormModalProps) {
  const create = useCreateMappingStudy();
  const devices = useStudyDevices(user, opened);
  const [name, setName] = useState('');
  const [locationId, setLocationId] = useState<string | null>(null);
  const [macs, setMacs] = useState<string[]>([]);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [min, setMin] = useState('2');
  const [max, setMax] = useState('8');
  const [problem, setProblem] = useState<string | null>(null);

  const close = () => {
    setName('');
    setLocationId(null);
    setMacs([]);
    setFrom('');
    setTo('');
    setMin('2');
    setMax('8');
    setProblem(null);
    create.reset();
    onClose();
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!from || !to) return setProblem('Informe o início e o fim do estudo.');
    const parsed = CreateMappingStudyBody.safeParse({
      name,
      location_id: locationId,
      macs,
      from: instantOf(from),
      to: instantOf(to),
      min: temperatureOf(min) ?? null,
      max: temperatureOf(max) ?? null,
    });
    if (!parsed.success) return setProblem(parsed.error.issues[0]?.message ?? null);
    setProblem(null);
    create.mutate(parsed.data, { onSuccess: close });
  };

  const location = locations.find((l) => l._id === locationId);
  const deviceOptions = (devices.data ?? [])
    // A study is one enterprise's space: with a location chosen, only that enterprise's devices are offered.
    .filter((d) => !location || d.enterprise?._id === location.enterprise._id)
    .map((d) => ({ value: d.mac, label: `${d.name} (${d.mac})` }));

  return (
    <FormModal
      opened={opened}
      onClose={close}
      title="Novo estudo de mapeamento térmico"
      size="lg"
      onSubmit={submit}
      submitLabel="Iniciar estudo"
      pending={create.isPending}
      error={problem ?? (create.isError ? errorMessage(create.error, 'Não foi possível iniciar o estudo.') : null)}
    >
      <TextInput
        label="Nome do estudo"
        placeholder="Ex.: Câmara fria 2 — qualificação de verão"
        value={name}
        onChange={(event) => setName(event.currentTarget.value)}
        maxLength={120}
        withAsterisk
        data-autofocus
      />
      <Select
        label="Local"
        placeholder="Opcional"
        data={locations.map((l) => ({ value: l._id, label: l.name }))}
        value={locationId}
        onChange={setLocationId}
        clearable
        searchable
        comboboxProps={{ withinPortal: true }}
      />
      <MultiSelect
        label="Sensores"
        placeholder={macs.length === 0 ? 'Escolha os sensores' : undefined}
        description={`De 2 a ${MAPPING_STUDY_MAX_SENSORS} sensores, nos pontos a mapear (cantos, centro, porta, perto do evaporador).`}
        data={deviceOptions}
        value={macs}
        onChange={setMacs}
        searchable
        maxValues={MAPPING_STUDY_MAX_SENSORS}
        nothingFoundMessage={devices.isPending ? 'Carregando dispositivos...' : 'Nenhum dispositivo encontrado.'}
        withAsterisk
        comboboxProps={{ withinPortal: true }}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <TextInput label="Início" type="datetime-local" value={from} onChange={(event) => setFrom(event.currentTarget.value)} withAsterisk />
        <TextInput label="Fim" type="datetime-local" value={to} onChange={(event) => setTo(event.currentTarget.value)} withAsterisk />
        <TextInput label="Temperatura mínima (°C)" inputMode="decimal" value={min} onChange={(event) => setMin(event.currentTarget.value)} withAsterisk />
        <TextInput label="Temperatura máxima (°C)" inputMode="decimal" value={max} onChange={(event) => setMax(event.currentTarget.value)} withAsterisk />
      </SimpleGrid>
      <Text size="xs" c="dimmed">
        {`Período de até ${MAPPING_STUDY_MAX_DAYS} dias. O relatório em PDF assinado mostra todos os sensores juntos, os pontos mais quente e mais frio, a diferença entre eles ao longo do tempo e a calibração de cada sensor.`}
      </Text>
    </FormModal>
  );
}
