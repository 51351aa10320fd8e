import { notifications } from '@mantine/notifications';
import { can, REPORT_MESSAGES } from '@sentinela/contract';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSession } from '../../lib/session';
import type { ExportFormat, ExportTarget } from './request-export';
import { REPORTS_QUERY_KEY } from './query-key';
import { reportErrorMessage } from './download';
import { EXPORT_STAGE_MESSAGES, runExport } from './export';

/** Identifies one export (target and format), so its button can show that it is running. */
export function exportKey(target: ExportTarget, format: ExportFormat): string {
  switch (target.kind) {
    case 'device-history':
      return `${target.kind}|${target.mac}|${target.filterQuery}|${format}`;
    case 'travel-device-history':
      return `${target.kind}|${target.travelId}|${target.mac}|${format}`;
    case 'travel':
      return `${target.kind}|${target.travelId}`;
  }
}

let sequence = 0;

export interface ReportExport {
  exportReport: (target: ExportTarget, format: ExportFormat) => Promise<void>;
  isExporting: (target: ExportTarget, format: ExportFormat) => boolean;
}

const ReportExportContext = createContext<ReportExport | null>(null);

/**
 * Runs exports with their progress in a notification: "Aguarde.. Carregando relatório...", "O relatório está sendo
 * gerado...", then "Relatório foi baixado com sucesso" or Erro! with the reason.
 * It lives in the signed-in shell, not in each screen: switching a tab or a screen while the job queue works does not
 * lose the download the user asked for. Leaving the shell (signing out, session expiry) cancels what is running; the
 * report itself stays listed on /reports.
 */
export function ReportExportProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [running, setRunning] = useState<ReadonlySet<string>>(() => new Set());
  const controllers = useRef(new Set<AbortController>());

  useEffect(() => {
    const active = controllers.current;
    return () => {
      for (const controller of active) controller.abort();
    };
  }, []);

  const exportReport = useCallback(
    async (target: ExportTarget, format: ExportFormat) => {
      const key = exportKey(target, format);
      const id = `report-export-${++sequence}`;
      const controller = new AbortController();
      controllers.current.add(controller);
      setRunning((previous) => new Set(previous).add(key));
      notifications.show({
        id,
        loading: true,
        autoClose: false,
        withCloseButton: false,
        message: EXPORT_STAGE_MESSAGES.loading,
      });
      try {
        await runExport(target, format, {
          signal: controller.signal,
          onStage: (stage) => notifications.update({ id, loading: true, message: EXPORT_STAGE_MESSAGES[stage] }),
        });
        notifications.update({
          id,
          loading: false,
          color: 'teal',
          message: REPORT_MESSAGES.downloaded,
          autoClose: 4_000,
          withCloseButton: true,
        });
      } catch (error) {
        if (controller.signal.aborted) notifications.hide(id);
        else
          notifications.update({
            id,
            loading: false,
            color: 'red',
            title: 'Erro!',
            message: reportErrorMessage(error),
            autoClose: 8_000,
            withCloseButton: true,
          });
      } finally {
        controllers.current.delete(controller);
        if (!controller.signal.aborted) {
          setRunning((previous) => {
            const next = new Set(previous);
            next.delete(key);
            return next;
          });
        }
        // The list on /reports shows the new report (queued, generated or failed) when next opened.
        void queryClient.invalidateQueries({ queryKey: REPORTS_QUERY_KEY });
      }
    },
    [queryClient],
  );

  const isExporting = useCallback((target: ExportTarget, format: ExportFormat) => running.has(exportKey(target, format)), [running]);
  const value = useMemo(() => ({ exportReport, isExporting }), [exportReport, isExporting]);

  return <ReportExportContext value={value}>{children}</ReportExportContext>;
}

/**
 * The export flow of the signed-in shell, or null where exports are not offered: to visitors (the public
 * localizator) and to profiles that only read reports (P8). Callers show their export controls only when it is set.
 */
export function useReportExport(): ReportExport | null {
  const value = useContext(ReportExportContext);
  const session = useSession();
  return value && session && can(session.user.profile._id, 'reports:generate') ? value : null;
}
