import { Alert, SimpleGrid, Stack, Text } from '@mantine/core';
import { MIME_TYPES } from '@mantine/dropzone';
import { REPORT_KIND_NAMES, REPORT_MESSAGES, type ReportValidation } from '@sentinela/contract';
import { IconCircleCheck, IconCircleX, IconFileTypePdf } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { Logo } from '../../../components/Logo';
import { errorMessage } from '../../../lib/api-client';
import { EMPTY, formatDateTime } from '../../../lib/format';
import { validateReport } from '../api/validate-report';
import '../styles';
import { FileDropzone } from './FileDropzone';
import { TimestampDetails } from './TimestampDetails';

interface Verdict {
  fileName: string | null;
  valid: boolean;
  /** The server's message when it gave one, else the generic text. */
  message: string;
  report?: ReportValidation['report'];
  /** An invoice PDF, signed like the reports (ADR 30). */
  invoice?: ReportValidation['invoice'];
  /** Its RFC 3161 timestamp (ADR 79). */
  timestamp?: ReportValidation['timestamp'];
}

const PDF_ACCEPT = { [MIME_TYPES.pdf]: ['.pdf'] };

/**
 * /report/validator (R6), open to everyone: one PDF in, "Válido!" only when the server recognises it as a report the
 * product generated and nobody changed, "Inválido!" otherwise.
 */
export function ReportValidatorPage() {
  const [progress, setProgress] = useState<number | null>(null);
  const [verdict, setVerdict] = useState<Verdict | null>(null);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const validate = async (file: File) => {
    controller.current?.abort();
    const current = new AbortController();
    controller.current = current;
    setVerdict(null);
    setProgress(0);
    try {
      const answer = await validateReport(file, setProgress, current.signal);
      setVerdict({
        fileName: file.name,
        valid: answer.valid,
        message: answer.error || (answer.valid ? REPORT_MESSAGES.validText : REPORT_MESSAGES.invalidText),
        report: answer.report,
        invoice: answer.invoice,
        timestamp: answer.timestamp,
      });
    } catch (error) {
      if (current.signal.aborted) return;
      // A refused or failed validation marks the file invalid, with the server's (or the network's) message.
      setVerdict({ fileName: file.name, valid: false, message: errorMessage(error, REPORT_MESSAGES.invalidText) });
    } finally {
      if (!current.signal.aborted) setProgress(null);
    }
  };

  return (
    <Stack maw={640} mx="auto" mt="lg" gap="lg">
      <Stack align="center" gap="xs">
        <Logo size="lg" />
        <Text c="dimmed" ta="center">
          Confira se um relatório em PDF foi gerado pela plataforma e não foi modificado.
        </Text>
      </Stack>
      <FileDropzone
        title="Validar relatório"
        hint="Arraste o relatório em PDF para cá ou clique para escolher o arquivo."
        accept={PDF_ACCEPT}
        wrongTypeMessage={REPORT_MESSAGES.notPdf}
        icon={IconFileTypePdf}
        onFile={(file) => void validate(file)}
        onRefused={(message) => setVerdict({ fileName: null, valid: false, message })}
        progress={progress}
      />
      {verdict && <VerdictAlert verdict={verdict} />}
    </Stack>
  );
}

function VerdictAlert({ verdict }: { verdict: Verdict }) {
  const { valid, report, invoice, timestamp } = verdict;
  return (
    <Alert
      color={valid ? 'green' : 'red'}
      variant="light"
      title={valid ? REPORT_MESSAGES.valid : REPORT_MESSAGES.invalid}
      icon={valid ? <IconCircleCheck /> : <IconCircleX />}
      data-testid="validation-result"
      styles={{ title: { fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <Stack gap="xs">
        <Text size="sm">{verdict.message}</Text>
        {verdict.fileName && (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Arquivo: {verdict.fileName}
          </Text>
        )}
        {valid && report && (
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={4} data-testid="validated-report">
            <Detail label="Relatório" value={REPORT_KIND_NAMES[report.kind]} />
            <Detail label="Gerado em" value={formatDateTime(report.generated_at)} />
            <Detail label="Empresa" value={report.enterprise ?? EMPTY} />
            <Detail label="Mac" value={report.mac ?? EMPTY} />
            <Detail label="Código do relatório" value={report._id} />
          </SimpleGrid>
        )}
        {valid && invoice && (
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" verticalSpacing={4} data-testid="validated-invoice">
            <Detail label="Documento" value={`Fatura nº ${invoice.number}`} />
            <Detail label="Gerado em" value={formatDateTime(invoice.generated_at)} />
            <Detail label="Empresa" value={invoice.enterprise} />
            <Detail label="Código do documento" value={invoice._id} />
          </SimpleGrid>
        )}
        {valid && timestamp && <TimestampDetails timestamp={timestamp} />}
      </Stack>
    </Alert>
  );
}

function Detail({ label, value }: { label: string; value: string }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </div>
  );
}
