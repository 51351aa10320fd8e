import { notifications } from '@mantine/notifications';
import { REPORT_MESSAGES, type Report } from '@sentinela/contract';
import { useCallback, useEffect, useRef, useState } from 'react';
import { apiFetch } from '../../lib/api-client';
import { saveBlob } from '../../lib/download';
import { reportErrorMessage, reportFileName } from '../../components/report-export/download';
import { ZIP_NAME, uniqueEntryNames, zipStreams, type ZipSource } from './zip-download';

/** A generated report's file as a zip source: fetched with the session's token and streamed, never buffered. */
function reportSource(report: Report & { download_url: string }, name: string): ZipSource {
  return {
    name,
    open: async (signal) => {
      const response = await apiFetch(report.download_url, { accept: '*/*', signal });
      if (!response.body) throw new Error(REPORT_MESSAGES.failed);
      const length = Number(response.headers.get('content-length'));
      return { body: response.body, size: Number.isFinite(length) && length > 0 ? length : null };
    },
  };
}

const hasFile = (report: Report): report is Report & { download_url: string } => !!report.download_url;

/** How long the finished bar stays at 100 % before it goes away. */
const DONE_VISIBLE_MS = 2_000;

/**
 * Baixar selecionados (R4): the selected reports' files in one zip, built in the browser, with the progress in
 * percent (null when there is none to show). Leaving the screen cancels it.
 */
export function useBulkDownload() {
  const [progress, setProgress] = useState<number | null>(null);
  const [running, setRunning] = useState(false);
  const controller = useRef<AbortController | null>(null);
  const hideTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(
    () => () => {
      controller.current?.abort();
      clearTimeout(hideTimer.current);
    },
    [],
  );

  const download = useCallback(async (reports: readonly Report[]) => {
    const files = reports.filter(hasFile);
    if (files.length === 0 || controller.current) return;
    const current = new AbortController();
    controller.current = current;
    clearTimeout(hideTimer.current);
    setRunning(true);
    setProgress(0);
    try {
      const names = uniqueEntryNames(files.map((report) => reportFileName(report)));
      const zip = await zipStreams(files.map((report, i) => reportSource(report, names[i]!)), {
        signal: current.signal,
        onProgress: (fraction) => setProgress(Math.floor(fraction * 100)),
      });
      saveBlob(zip, ZIP_NAME);
      setProgress(100);
      hideTimer.current = setTimeout(() => setProgress(null), DONE_VISIBLE_MS);
    } catch (error) {
      if (current.signal.aborted) return;
      setProgress(null);
      notifications.show({ color: 'red', title: 'Erro!', message: reportErrorMessage(error) });
    } finally {
      controller.current = null;
      if (!current.signal.aborted) setRunning(false);
    }
  }, []);

  return { download, progress, running };
}
