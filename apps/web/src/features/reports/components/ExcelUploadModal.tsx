import { Alert, Anchor, Button, Group, List, Modal, Stack, Text } from '@mantine/core';
import { MIME_TYPES } from '@mantine/dropzone';
import { notifications } from '@mantine/notifications';
import { EXCEL_TEMPLATE_COLUMNS, REPORT_MESSAGES, type ExcelGenerationResult } from '@sentinela/contract';
import { IconAlertCircle, IconAlertTriangle, IconCircleCheck, IconDownload, IconFileSpreadsheet } from '@tabler/icons-react';
import { useEffect, useRef, useState } from 'react';
import { errorMessage } from '../../../lib/api-client';
import { downloadExcelTemplate, generateReportsByExcel } from '../api/generate-reports-by-excel';
import { FileDropzone } from './FileDropzone';

const XLSX_ACCEPT = { [MIME_TYPES.xlsx]: ['.xlsx'] };

interface ExcelUploadModalProps {
  opened: boolean;
  /** Called when the modal closes; the list of reports refreshes then (spec 001). */
  onClose: () => void;
}

/** "Enviar arquivo excel" (R5): one filled-in template in, one queued report per valid row. */
export function ExcelUploadModal({ opened, onClose }: ExcelUploadModalProps) {
  const [progress, setProgress] = useState<number | null>(null);
  const [result, setResult] = useState<ExcelGenerationResult | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [fetchingTemplate, setFetchingTemplate] = useState(false);
  const controller = useRef<AbortController | null>(null);

  useEffect(() => () => controller.current?.abort(), []);

  const close = () => {
    controller.current?.abort();
    controller.current = null;
    setProgress(null);
    setResult(null);
    setFailure(null);
    onClose();
  };

  const upload = async (file: File) => {
    const current = new AbortController();
    controller.current = current;
    setResult(null);
    setFailure(null);
    setProgress(0);
    try {
      setResult(await generateReportsByExcel(file, setProgress, current.signal));
    } catch (error) {
      if (!current.signal.aborted) setFailure(errorMessage(error, REPORT_MESSAGES.failed));
    } finally {
      if (!current.signal.aborted) setProgress(null);
    }
  };

  const template = async () => {
    setFetchingTemplate(true);
    try {
      await downloadExcelTemplate();
    } catch (error) {
      notifications.show({ color: 'red', title: 'Erro!', message: errorMessage(error, REPORT_MESSAGES.failed) });
    } finally {
      setFetchingTemplate(false);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title="Enviar arquivo excel" size="lg" centered>
      <Stack gap="md">
        <div>
          <Text size="sm">
            Preencha o modelo com um relatório por linha, com as datas no formato DD/MM/AAAA HH:mm, e envie o arquivo. Cada
            linha lida vira um relatório na lista.
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            Colunas: {EXCEL_TEMPLATE_COLUMNS.join(' · ')}
          </Text>
        </div>
        <Group gap={6}>
          <IconDownload size={16} aria-hidden />
          <Anchor component="button" type="button" size="sm" onClick={() => void template()} disabled={fetchingTemplate}>
            {fetchingTemplate ? 'Baixando modelo...' : 'Baixar modelo excel'}
          </Anchor>
        </Group>
        <FileDropzone
          title="Enviar modelo excel"
          hint="Arraste o arquivo .xlsx para cá ou clique para escolher."
          accept={XLSX_ACCEPT}
          wrongTypeMessage={REPORT_MESSAGES.notXlsx}
          icon={IconFileSpreadsheet}
          onFile={(file) => void upload(file)}
          onRefused={(message) => {
            setResult(null);
            setFailure(message);
          }}
          progress={progress}
        />
        {failure && (
          <Alert color="red" title="Erro!" icon={<IconAlertCircle />}>
            {failure}
          </Alert>
        )}
        {result && (
          <Stack gap="sm" data-testid="excel-result">
            <Alert color="green" icon={<IconCircleCheck />}>
              {REPORT_MESSAGES.excelRead(result.reportsToProccess)}
            </Alert>
            {result.errors.length > 0 && (
              <Alert color="yellow" icon={<IconAlertTriangle />} title={REPORT_MESSAGES.excelErrors(result.errors.length)}>
                <List size="sm" spacing={2}>
                  {result.errors.map((message, index) => (
                    <List.Item key={index}>{message}</List.Item>
                  ))}
                </List>
              </Alert>
            )}
          </Stack>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            Fechar
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
