import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, FileButton, Group, List, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { BEACON_MESSAGES, MSG, RegisterBeaconBody, type DiscoveredDevice } from '@sentinela/contract';
import { IconAlertCircle, IconDownload, IconFileSpreadsheet, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { z } from 'zod';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { errorMessage } from '../../../lib/api-client';
import { formatDateTime, formatInteger } from '../../../lib/format';
import { downloadBeaconTemplate, useImportBeacons } from '../api/import-beacons';
import { useDiscoveredDevices } from '../api/list-discovered';
import { useRegisterBeacon } from '../api/register-beacon';

type BeaconForm = z.input<typeof RegisterBeaconBody>;

/** The name a discovered MAC gets when registered in one click; renamed later like any device. */
export const discoveredName = (mac: string) => `Dispositivo ${mac}`;

/**
 * "Cadastrar Dispositivos" (X1), the super admin's: a beacon by hand, many from a spreadsheet (with its template),
 * and the MACs gateways are hearing that nobody registered yet, each registered in one click. Registered beacons
 * belong to no enterprise until linked (Empresas → Dispositivos).
 */
export function BeaconsPage() {
  return (
    <Stack>
      <Title order={2}>Cadastrar Dispositivos</Title>
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        <RegisterOne />
        <ImportMany />
      </SimpleGrid>
      <Discovered />
    </Stack>
  );
}

function RegisterOne() {
  const registerBeacon = useRegisterBeacon();
  const {
    register,
    handleSubmit,
    reset,
    formState: { errors },
  } = useForm<BeaconForm, unknown, z.output<typeof RegisterBeaconBody>>({
    resolver: zodResolver(RegisterBeaconBody),
    defaultValues: { mac: '', name: '', model: '' },
  });
  const onSubmit = handleSubmit((body) =>
    registerBeacon.mutate(body, {
      onSuccess: (device) => {
        notifications.show({ color: 'teal', title: MSG.successTitle, message: `${BEACON_MESSAGES.registered} (${device.mac})` });
        reset();
      },
    }),
  );
  return (
    <Paper withBorder radius="md" p="lg">
      <form onSubmit={onSubmit} noValidate>
        <Stack>
          <Title order={4}>Um dispositivo</Title>
          {registerBeacon.isError && (
            <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
              {errorMessage(registerBeacon.error, 'Não foi possível cadastrar o dispositivo.')}
            </Alert>
          )}
          <TextInput label="Endereço MAC" withAsterisk placeholder="AA:BB:CC:DD:EE:FF" error={errors.mac?.message} {...register('mac')} />
          <TextInput label="Nome" withAsterisk error={errors.name?.message} {...register('name')} />
          <TextInput label="Modelo (número de série)" error={errors.model?.message} {...register('model')} />
          <Group justify="flex-end">
            <Button type="submit" loading={registerBeacon.isPending} leftSection={<IconPlus size={16} />}>
              Cadastrar
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

function ImportMany() {
  const importBeacons = useImportBeacons();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const result = importBeacons.data;
  const download = () => {
    setDownloading(true);
    setDownloadError(null);
    downloadBeaconTemplate()
      .catch((error: unknown) => setDownloadError(errorMessage(error, 'Não foi possível baixar o modelo.')))
      .finally(() => setDownloading(false));
  };
  return (
    <Paper withBorder radius="md" p="lg">
      <Stack>
        <Title order={4}>Importar planilha</Title>
        <Text size="sm" c="dimmed">
          Uma planilha .xlsx ou um arquivo .csv com as colunas MAC, Nome e Modelo (opcional), um dispositivo por linha.
        </Text>
        <Group gap="sm">
          <Button variant="default" leftSection={<IconDownload size={16} />} loading={downloading} onClick={download}>
            Baixar modelo
          </Button>
          <FileButton accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" onChange={(file) => file && importBeacons.mutate(file)}>
            {(props) => (
              <Button {...props} leftSection={<IconFileSpreadsheet size={16} />} loading={importBeacons.isPending}>
                Enviar planilha
              </Button>
            )}
          </FileButton>
        </Group>
        {downloadError && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {downloadError}
          </Alert>
        )}
        {importBeacons.isError && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {errorMessage(importBeacons.error, 'Não foi possível ler a planilha.')}
          </Alert>
        )}
        {result && (
          <Alert color={result.errors.length ? 'yellow' : 'teal'} title={BEACON_MESSAGES.importSummary(result.registered)}>
            {result.errors.length > 0 && (
              <Stack gap={4}>
                <Text size="sm">{BEACON_MESSAGES.importErrors(result.errors.length)}</Text>
                <List size="sm" spacing={2}>
                  {result.errors.map((message) => (
                    <List.Item key={message}>{message}</List.Item>
                  ))}
                </List>
              </Stack>
            )}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

function Discovered() {
  const discovered = useDiscoveredDevices();
  const registerBeacon = useRegisterBeacon();
  const [pending, setPending] = useState<string | null>(null);
  const registerMac = (mac: string) => {
    setPending(mac);
    registerBeacon.mutate(
      { mac, name: discoveredName(mac) },
      {
        onSuccess: () => notifications.show({ color: 'teal', title: MSG.successTitle, message: `${BEACON_MESSAGES.registered} (${mac})` }),
        onError: (error) => notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, 'Não foi possível cadastrar o dispositivo.') }),
        onSettled: () => setPending(null),
      },
    );
  };
  const columns: DataTableColumn<DiscoveredDevice>[] = [
    { key: 'mac', header: 'Endereço Mac', render: (d) => <Text ff="monospace" size="sm">{d.mac}</Text>, sortValue: (d) => d.mac },
    { key: 'gateway', header: 'Gateway', render: (d) => d.gateway?.name ?? '--', sortValue: (d) => d.gateway?.name ?? null },
    { key: 'first', header: 'Primeira leitura', render: (d) => <NoWrap>{formatDateTime(d.first_seen_at)}</NoWrap>, sortValue: (d) => Date.parse(d.first_seen_at) },
    { key: 'last', header: 'Última leitura', render: (d) => <NoWrap>{formatDateTime(d.last_seen_at)}</NoWrap>, sortValue: (d) => Date.parse(d.last_seen_at) },
    { key: 'readings', header: 'Leituras', render: (d) => formatInteger(d.readings), sortValue: (d) => d.readings },
    {
      key: 'actions',
      header: 'Ações',
      render: (d) => (
        <Button size="xs" variant="light" leftSection={<IconPlus size={14} />} loading={pending === d.mac} disabled={pending !== null && pending !== d.mac} onClick={() => registerMac(d.mac)}>
          Cadastrar
        </Button>
      ),
    },
  ];
  return (
    <Stack gap="xs">
      <Title order={3}>MACs descobertos pelos gateways</Title>
      <Text size="sm" c="dimmed">
        Leituras recebidas de dispositivos ainda não cadastrados. Cadastre-os e vincule-os a uma empresa para que as leituras dos gateways dela sejam guardadas.
      </Text>
      {discovered.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {errorMessage(discovered.error, 'Não foi possível carregar os MACs descobertos.')}
        </Alert>
      )}
      <DataTable
        rows={discovered.data ?? []}
        columns={columns}
        rowKey={(d) => d.mac}
        searchText={(d) => `${d.mac} ${d.gateway?.name ?? ''}`}
        searchPlaceholder="Pesquisar MAC ou gateway"
        emptyText="Nenhum MAC desconhecido foi recebido pelos gateways."
        loading={discovered.isPending && !discovered.isError}
      />
    </Stack>
  );
}
