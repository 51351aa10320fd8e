import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { ReportStatus, type Location, type MappingStudy, type SessionUser } from '@sentinela/contract';
import { IconAlertCircle, IconDownload, IconPlus } from '@tabler/icons-react';
import { useState, type ReactNode } from 'react';
import { CardLine } from '../../../components/CardLine';
import { ListCard, ListCards } from '../../../components/ListCard';
import { DataTable, type DataTableColumn } from '../../../components/DataTable';
import { downloadReport, reportErrorMessage } from '../../../components/report-export/download';
import { ReportStatusBadge } from '../../../components/report-export/ReportStatusBadge';
import { formatDateTimeMinutes, formatDecimal } from '../../../lib/format';
import { useMappingStudies } from '../api/mapping-studies';
import { MappingStudyFormModal } from './MappingStudyFormModal';

const LOAD_FAILED = 'Não foi possível carregar os estudos de mapeamento térmico.';

const searchText = (s: MappingStudy) => `${s.name} ${s.location?.name ?? ''} ${s.sensors.map((x) => `${x.name} ${x.mac}`).join(' ')}`;

/**
 * "Estudos de mapeamento térmico" under Locais (X12, ADR 0083): start a study and follow its signed PDF report. For
 * the enterprise's administrators (and the super admin).
 */
export function MappingStudiesSection({ user, locations }: { user: Pick<SessionUser, '_id' | 'profile'>; locations: readonly Location[] }) {
  const studies = useMappingStudies(true);
  const [opened, setOpened] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);

  const download = (study: MappingStudy) => {
    setDownloading(study._id);
    downloadReport(study.report)
      .catch((error: unknown) => notifications.show({ color: 'red', title: 'Erro!', message: reportErrorMessage(error) }))
      .finally(() => setDownloading(null));
  };

  // Ações of a row and of its card on a phone (one function for both).
  const actionsOf = (s: MappingStudy) => (
    <Button
      size="xs"
      variant="light"
      leftSection={<IconDownload size={14} />}
      disabled={s.report.status.id !== ReportStatus.Generated || !s.report.download_url}
      loading={downloading === s._id}
      onClick={() => download(s)}
    >
      Baixar PDF
    </Button>
  );

  const columns: DataTableColumn<MappingStudy>[] = [
    { key: 'name', header: 'Estudo', render: (s) => s.name, sortValue: (s) => s.name },
    // Right after the name: the report's state is what one comes to see.
    { key: 'status', header: 'Relatório', render: (s) => <ReportStatusBadge report={s.report} /> },
    { key: 'location', header: 'Local', render: (s) => s.location?.name ?? '--', sortValue: (s) => s.location?.name ?? '' },
    {
      key: 'period',
      header: 'Período',
      render: (s) => `${formatDateTimeMinutes(s.from)} a ${formatDateTimeMinutes(s.to)}`,
      sortValue: (s) => s.from,
    },
    { key: 'sensors', header: 'Sensores', render: (s) => String(s.sensors.length), sortValue: (s) => s.sensors.length },
    { key: 'limits', header: 'Faixa', render: (s) => `${formatDecimal(s.min)} a ${formatDecimal(s.max)} °C` },
    { key: 'actions', header: 'Ações', render: actionsOf },
  ];

  return (
    <Stack gap="sm" data-testid="mapping-studies">
      <Group justify="space-between" gap="sm">
        <Stack gap={0}>
          <Title order={3}>Estudos de mapeamento térmico</Title>
          <Text size="sm" c="dimmed">
            Qualificação de câmaras frias e veículos: vários sensores no mesmo espaço, pontos mais quente e mais frio.
          </Text>
        </Stack>
        <Button leftSection={<IconPlus size={16} />} variant="light" onClick={() => setOpened(true)}>
          Novo estudo
        </Button>
      </Group>
      {studies.isError && (
        <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
          {LOAD_FAILED}
        </Alert>
      )}
      <DataTable
        rows={studies.data ?? []}
        columns={columns}
        rowKey={(s) => s._id}
        searchText={searchText}
        searchPlaceholder="Pesquisar estudos"
        emptyText={studies.isError ? LOAD_FAILED : 'Nenhum estudo de mapeamento térmico. Use "Novo estudo" para qualificar um espaço.'}
        loading={studies.isPending && !studies.isError}
        renderCards={(rows) => <StudyCards studies={rows} actions={actionsOf} />}
      />
      <MappingStudyFormModal opened={opened} onClose={() => setOpened(false)} user={user} locations={locations} />
    </Stack>
  );
}

/**
 * The studies on a phone: one card per study instead of a table scrolled sideways, whose Baixar PDF sat off screen.
 * The same fields as the table's columns and the same action as its row.
 */
function StudyCards({ studies, actions }: { studies: readonly MappingStudy[]; actions: (study: MappingStudy) => ReactNode }) {
  return (
    <ListCards testId="study-cards">
      {studies.map((s) => (
        <ListCard key={s._id} testId="study-card" title={s.name} badge={<ReportStatusBadge report={s.report} />}>
          <CardLine label="Local">{s.location?.name ?? '--'}</CardLine>
          <CardLine label="Período">{`${formatDateTimeMinutes(s.from)} a ${formatDateTimeMinutes(s.to)}`}</CardLine>
          <CardLine label="Sensores">{String(s.sensors.length)}</CardLine>
          <CardLine label="Faixa">{`${formatDecimal(s.min)} a ${formatDecimal(s.max)} °C`}</CardLine>
          <Group>{actions(s)}</Group>
        </ListCard>
      ))}
    </ListCards>
  );
}
