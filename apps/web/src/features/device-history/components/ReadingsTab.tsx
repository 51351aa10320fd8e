import '@mantine/core/styles/Pagination.css';
import '@mantine/core/styles/Table.css';
import { Alert, Center, Group, Loader, Pagination, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { dayjs } from '../../../lib/dayjs';
import { EMPTY, formatDateTime, formatHumidity, formatTemperature, pluralize } from '../../../lib/format';
import { HISTORY_PAGE_SIZE, useHistoryPage } from '../api/get-history-page';
import { HISTORY_MESSAGES } from '../messages';

const COLUMNS = ['Data/Hora', 'Data/Hora (UTC)', 'Temperatura', 'Umidade'];

/** DD/MM/YYYY HH:mm:ss in UTC (the Dados tab shows both clocks). */
export function formatUtcDateTime(iso: string): string {
  const date = dayjs.utc(iso);
  return date.isValid() ? date.format('DD/MM/YYYY HH:mm:ss') : EMPTY;
}

interface ReadingsTabProps {
  mac: string;
  filterQuery: string;
  page: number;
  onPageChange: (page: number) => void;
}

/** Dados: the filtered readings, paged by the server, newest first (D3). */
export function ReadingsTab({ mac, filterQuery, page, onPageChange }: ReadingsTabProps) {
  const readings = useHistoryPage(mac, filterQuery, page);
  const rows = readings.isError ? [] : (readings.data?.data ?? []);
  const total = readings.isError ? 0 : (readings.data?.total ?? 0);
  const totalPages = Math.max(1, Math.ceil(total / HISTORY_PAGE_SIZE));

  return (
    <Stack gap="sm">
      {readings.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {HISTORY_MESSAGES.readingsLoadError}
        </Alert>
      )}
      {readings.data && !readings.isError && (
        <Text size="sm" c="dimmed" data-testid="readings-total">
          {pluralize(total, 'registro', 'registros')} de {formatDateTime(readings.data.from)} a{' '}
          {formatDateTime(readings.data.to)}
        </Text>
      )}
      <ScrollArea type="auto">
        <Table
          highlightOnHover
          highlightOnHoverColor="teal.0"
          verticalSpacing="xs"
          // No minimum width: on phones the dates wrap onto two lines and all four columns stay in view.
          style={{ opacity: readings.isPlaceholderData ? 0.6 : 1 }}
          aria-busy={readings.isFetching}
        >
          <Table.Thead>
            <Table.Tr>
              {COLUMNS.map((column) => (
                <Table.Th key={column}>{column}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {readings.isPending ? (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length}>
                  <Center py="md">
                    <Loader size="sm" aria-label="Carregando..." />
                  </Center>
                </Table.Td>
              </Table.Tr>
            ) : rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={COLUMNS.length}>
                  <Text ta="center" c="dimmed" py="md">
                    {HISTORY_MESSAGES.empty}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((reading) => (
                <Table.Tr key={reading.createdAt}>
                  <Table.Td>{formatDateTime(reading.createdAt)}</Table.Td>
                  <Table.Td>{formatUtcDateTime(reading.createdAt)}</Table.Td>
                  <Table.Td>{formatTemperature(reading.temperature)}</Table.Td>
                  <Table.Td>{formatHumidity(reading.humidity)}</Table.Td>
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </ScrollArea>
      {totalPages > 1 && (
        <Group justify="flex-end">
          <Pagination total={totalPages} value={Math.min(page, totalPages)} onChange={onPageChange} size="sm" siblings={1} />
        </Group>
      )}
    </Stack>
  );
}
