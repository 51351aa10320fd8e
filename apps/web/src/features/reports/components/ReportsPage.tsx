import { Anchor, Badge, Box, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { can, REPORT_MESSAGES, type Report } from '@sentinela/contract';
import { IconFileUpload, IconFileZip, IconFilter, IconRefresh, IconSignature } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState, type FormEvent, type ReactNode } from 'react';
import { SignatureLine } from '../../../components/compliance/SignatureLine';
import { CardLine } from '../../../components/CardLine';
import { ListCard, ListCards } from '../../../components/ListCard';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { NoWrap } from '../../../components/NoWrap';
import { RetryAlert } from '../../../components/QueryStatus';
import { EMPTY } from '../../../lib/format';
import { useRequiredSession } from '../../../lib/session';
import { reportKeys } from '../api/keys';
import { useReports, type ReportListFilters } from '../api/list-reports';
import { downloadReport, reportErrorMessage } from '../../../components/report-export/download';
import { periodFormToFilters, type PeriodForm } from '../period-filter';
import '../styles';
import { useBulkDownload } from '../use-bulk-download';
import { reportGeneratedAt, reportKindName, reportName, reportPeriodEnds, reportType } from '../view';
import { ApproveReportModal } from './ApproveReportModal';
import { ExcelUploadModal } from './ExcelUploadModal';
import { ReportStatusBadge } from '../../../components/report-export/ReportStatusBadge';

const NO_FILTERS: ReportListFilters = { dateInit: null, dateEnd: null };

/** /reports "Relatórios" (R3, R4, R5). */
export function ReportsPage() {
  const { user } = useRequiredSession();
  const canGenerate = can(user.profile._id, 'reports:generate');
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<ReportListFilters>(NO_FILTERS);
  const reports = useReports(filters);
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const [uploading, setUploading] = useState(false);
  const [approving, setApproving] = useState<Report | null>(null);
  const bulk = useBulkDownload();

  const rows = useMemo(() => reports.data ?? [], [reports.data]);
  // The selection as reports that (still) have a file: a refresh may have dropped or changed rows.
  const chosen = useMemo(() => rows.filter((report) => selected.has(report._id) && report.download_url), [rows, selected]);

  // Ações of a row and of its card on a phone (one function for both).
  // X11 (ADR 0062): once the file exists, it can be approved with an electronic signature, shown here after.
  const actionsOf = useCallback(
    (r: Report) => (
      <Stack gap={4} align="flex-start">
        <DownloadAction report={r} />
        {r.approval ? (
          // Narrow: the line wraps inside the column instead of widening the table.
          <Box maw={260}>
            <SignatureLine signature={r.approval} />
          </Box>
        ) : (
          canGenerate &&
          r.download_url && (
            <Button size="compact-xs" variant="light" leftSection={<IconSignature size={14} />} onClick={() => setApproving(r)}>
              Aprovar
            </Button>
          )
        )}
      </Stack>
    ),
    [canGenerate],
  );

  const columns = useMemo<DataTableColumn<Report>[]>(
    () => [
      {
        key: 'name',
        header: 'Nome',
        render: (r) => (
          <div>
            <Text size="sm">{reportName(r)}</Text>
            <Text size="xs" c="dimmed">
              {reportKindName(r)}
            </Text>
          </div>
        ),
      },
      { key: 'mac', header: 'Mac', render: (r) => <NoWrap>{r.mac ?? EMPTY}</NoWrap> },
      { key: 'status', header: 'Status', render: (r) => <ReportStatusBadge report={r} /> },
      { key: 'period', header: 'Período', render: (r) => <PeriodText report={r} /> },
      { key: 'generated', header: 'Gerado em', render: (r) => <NoWrap>{reportGeneratedAt(r)}</NoWrap> },
      { key: 'type', header: 'Tipo', render: reportType },
      { key: 'actions', header: 'Ações', render: actionsOf },
    ],
    [actionsOf],
  );

  const closeUpload = () => {
    setUploading(false);
    void queryClient.invalidateQueries({ queryKey: reportKeys.all });
  };

  return (
    <Stack gap="md">
      <Group justify="space-between" align="center" gap="sm">
        <Title order={2}>Relatórios</Title>
        <Group gap="xs">
          <Button
            variant="default"
            leftSection={<IconRefresh size={16} />}
            onClick={() => void reports.refetch()}
            loading={reports.isFetching && !reports.isPending}
          >
            Atualizar
          </Button>
          {canGenerate && (
            <Button variant="light" leftSection={<IconFileUpload size={16} />} onClick={() => setUploading(true)}>
              Gerar relatórios
            </Button>
          )}
          {chosen.length > 0 && (
            <Button
              leftSection={<IconFileZip size={16} />}
              rightSection={
                bulk.running ? undefined : (
                  <Badge size="sm" variant="white" circle aria-label={`${chosen.length} selecionado(s)`}>
                    {chosen.length}
                  </Badge>
                )
              }
              disabled={bulk.running}
              onClick={() => void bulk.download(chosen)}
            >
              {bulk.running ? REPORT_MESSAGES.preparing : 'Baixar selecionados'}
            </Button>
          )}
        </Group>
      </Group>

      <PeriodFilters
        onApply={(next) => {
          setFilters(next);
          setSelected(new Set());
        }}
      />

      {bulk.progress !== null && (
        <Stack gap={4} data-testid="bulk-progress">
          <Progress value={bulk.progress} animated={bulk.running} aria-label="Preparando arquivos" />
          <Text size="sm" c="dimmed" ta="right">
            {bulk.progress}%
          </Text>
        </Stack>
      )}

      {reports.isError ? (
        <RetryAlert message={REPORT_MESSAGES.loadFailed} onRetry={() => void reports.refetch()} retrying={reports.isFetching} />
      ) : (
        <DataTable
          rows={rows}
          columns={columns}
          rowKey={(r) => r._id}
          emptyText="Nada encontrado."
          loading={reports.isPending}
          pageSize={10}
          selection={{
            selected,
            onChange: setSelected,
            isSelectable: (r) => !!r.download_url,
            rowLabel: (r) => `Selecionar ${reportName(r)} (${reportType(r)})`,
          }}
          renderCards={(page, selectBox) => <ReportCards reports={page} selected={selected} selectBox={selectBox} actions={actionsOf} />}
        />
      )}

      {canGenerate && <ExcelUploadModal opened={uploading} onClose={closeUpload} />}
      <ApproveReportModal report={approving} onClose={() => setApproving(null)} />
    </Stack>
  );
}

/** Data/Hora Início and Data/Hora Fim, applied with "Aplicar filtro(s)"; an empty one is no limit (null). */
function PeriodFilters({ onApply }: { onApply: (filters: ReportListFilters) => void }) {
  const [values, setValues] = useState<PeriodForm>({ dateInit: '', dateEnd: '' });
  const [error, setError] = useState<string | null>(null);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = periodFormToFilters(values);
    setError(result.ok ? null : result.error);
    if (result.ok) onApply(result.filters);
  };

  return (
    <Paper withBorder p="sm" radius="md" component="form" onSubmit={submit} noValidate aria-label="Filtros">
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} spacing="sm" verticalSpacing="xs">
        <TextInput
          type="datetime-local"
          label="Data/Hora Início"
          value={values.dateInit}
          onChange={(event) => setValues({ ...values, dateInit: event.currentTarget.value })}
        />
        <TextInput
          type="datetime-local"
          label="Data/Hora Fim"
          value={values.dateEnd}
          onChange={(event) => setValues({ ...values, dateEnd: event.currentTarget.value })}
          error={error}
        />
        <Group align="flex-end">
          <Button type="submit" variant="light" leftSection={<IconFilter size={16} />}>
            Aplicar filtro(s)
          </Button>
        </Group>
      </SimpleGrid>
    </Paper>
  );
}

/**
 * The reports on a phone: one card per report instead of a table scrolled sideways, whose Baixar relatório and
 * Aprovar sat off screen. The same fields as the table's columns, the report's box (for Baixar selecionados) and the
 * same actions as its row.
 */
function ReportCards({
  reports,
  selected,
  selectBox,
  actions,
}: {
  reports: readonly Report[];
  /** Chosen for Baixar selecionados: tinted as the table tints a chosen row. */
  selected: ReadonlySet<string>;
  selectBox: (report: Report) => ReactNode;
  actions: (report: Report) => ReactNode;
}) {
  return (
    <ListCards testId="report-cards">
      {reports.map((r) => (
        <ListCard
          key={r._id}
          testId="report-card"
          title={reportName(r)}
          subtitle={reportKindName(r)}
          badge={<ReportStatusBadge report={r} />}
          lead={selectBox(r)}
          bg={selected.has(r._id) ? 'teal.0' : undefined}
        >
          <CardLine label="Mac">{r.mac ?? EMPTY}</CardLine>
          <CardLine label="Período">
            <PeriodText report={r} span />
          </CardLine>
          <CardLine label="Gerado em">{reportGeneratedAt(r)}</CardLine>
          <CardLine label="Tipo">{reportType(r)}</CardLine>
          {actions(r)}
        </ListCard>
      ))}
    </ListCards>
  );
}

/** A period breaks only at its dash, never inside a date. */
function PeriodText({ report, span = false }: { report: Report; span?: boolean }) {
  const ends = reportPeriodEnds(report);
  if (!ends) return <NoWrap>{EMPTY}</NoWrap>;
  return (
    <Text size="sm" span={span}>
      <NoWrap>{ends.from} –</NoWrap> <NoWrap>{ends.to}</NoWrap>
    </Text>
  );
}

/** Ações: "Baixar relatório" once the file exists; before that (queued or failed) the button is disabled. */
function DownloadAction({ report }: { report: Report }) {
  const [busy, setBusy] = useState(false);
  if (!report.download_url) {
    return (
      <Button size="compact-sm" variant="default" disabled>
        Baixar relatório
      </Button>
    );
  }
  const download = async () => {
    setBusy(true);
    try {
      await downloadReport(report);
    } catch (error) {
      notifications.show({ color: 'red', title: 'Erro!', message: reportErrorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Anchor component="button" type="button" size="sm" onClick={() => void download()} disabled={busy} style={{ whiteSpace: 'nowrap' }}>
      {busy ? 'Baixando...' : 'Baixar relatório'}
    </Anchor>
  );
}
