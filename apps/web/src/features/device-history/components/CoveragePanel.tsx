import '@mantine/core/styles/Table.css';
import { Alert, Group, Paper, Skeleton, Stack, Table, Text } from '@mantine/core';
import { COVERAGE_SINCE_LABELS, INTERVAL_SOURCE_LABELS, formatGapDuration, type Coverage } from '@sentinela/contract';
import type { ReactNode } from 'react';
import { formatDateTime, formatInteger, pluralize } from '../../../lib/format';
import { useCoverage } from '../api/get-coverage';

/** Gaps listed on screen; the reports list them all. */
const SHOWN_GAPS = 5;
const percent = new Intl.NumberFormat('pt-BR', { maximumFractionDigits: 1 });

/**
 * "Cobertura dos dados" (ADR 0035): of the readings the device should have sent over the filter's period, how many
 * arrived, the silences longer than the threshold, and the readings its counters say were lost on the way.
 */
export function CoveragePanel({ mac, filterQuery }: { mac: string; filterQuery: string }) {
  const coverage = useCoverage(mac, filterQuery);
  if (coverage.isError) {
    return (
      <Alert color="red" title="Erro!" variant="light">
        Não foi possível calcular a cobertura dos dados.
      </Alert>
    );
  }
  if (!coverage.data) return <Skeleton height={72} radius="md" />;
  return <CoverageSummary coverage={coverage.data} />;
}

export function CoverageSummary({ coverage }: { coverage: Coverage }) {
  const hidden = coverage.gapCount - Math.min(SHOWN_GAPS, coverage.gaps.length);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="coverage">
      <Stack gap="xs">
        <Text fw={700}>Cobertura dos dados</Text>
        <Group gap="xl" wrap="wrap" align="flex-start">
          <Figure label="Cobertura" testId="coverage-percent">
            {coverage.percent === null ? '--' : `${percent.format(coverage.percent)} %`}{' '}
            <Text span size="xs" c="dimmed">
              ({formatInteger(coverage.received)} de {pluralize(coverage.expected, 'leitura esperada', 'leituras esperadas')})
            </Text>
          </Figure>
          <Figure label="Lacunas" testId="coverage-gaps">
            {coverage.gapCount === 0 ? 'Nenhuma' : `${coverage.gapCount} (${formatGapDuration(coverage.gapTotalMs)} sem dados)`}
          </Figure>
          <Figure label="Leituras perdidas" testId="coverage-lost">
            {coverage.lost === null ? 'Sem contador de sequência' : coverage.lost}
          </Figure>
          <Figure label="Intervalo esperado" testId="coverage-interval">
            {formatGapDuration(coverage.expectedIntervalSeconds * 1000)}{' '}
            <Text span size="xs" c="dimmed">
              ({INTERVAL_SOURCE_LABELS[coverage.intervalSource]}; lacuna acima de {formatGapDuration(coverage.thresholdMs)})
            </Text>
          </Figure>
        </Group>
        {coverage.since && (
          <Text size="xs" c="dimmed" data-testid="coverage-since">
            Contada a partir de {formatDateTime(coverage.since.at)}, {COVERAGE_SINCE_LABELS[coverage.since.reason]}: o tempo antes disso não conta como
            falta de dados.
          </Text>
        )}
        {coverage.gaps.length > 0 && (
          <Table.ScrollContainer type="native" minWidth={420}>
            <Table verticalSpacing={4} fz="sm" data-testid="coverage-gap-table">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Início da lacuna</Table.Th>
                  <Table.Th>Fim</Table.Th>
                  <Table.Th>Duração</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {coverage.gaps.slice(0, SHOWN_GAPS).map((gap) => (
                  <Table.Tr key={gap.start}>
                    <Table.Td>{formatDateTime(gap.start)}</Table.Td>
                    <Table.Td>{formatDateTime(gap.end)}</Table.Td>
                    <Table.Td>{formatGapDuration(gap.durationMs)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {hidden > 0 && (
          <Text size="xs" c="dimmed">
            E mais {hidden} lacunas: o relatório em PDF ou Excel lista todas.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

function Figure({ label, testId, children }: { label: string; testId: string; children: ReactNode }) {
  return (
    <div data-testid={testId}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" fw={600}>
        {children}
      </Text>
    </div>
  );
}
