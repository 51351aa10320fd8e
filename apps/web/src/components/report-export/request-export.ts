import type { Report } from '@sentinela/contract';
import { apiRequest } from '../../lib/api-client';

/** The file formats of the export calls (the `/pdf` and `/excel` path endings). */
export type ExportFormat = 'pdf' | 'excel';

/** What an export covers (R1). */
export type ExportTarget =
  /** A device's history with the Dados/Gráfico filter, as its query string. */
  | { kind: 'device-history'; mac: string; filterQuery: string }
  /** One device's readings within a travel; with `code`, asked through its tracking code (ADR 72). */
  | { kind: 'travel-device-history'; travelId: string; mac: string; code?: string }
  /** The whole travel (always a PDF). */
  | { kind: 'travel'; travelId: string };

const part = encodeURIComponent;

/** The export call of a target and format (spec 001 §7). */
export function exportPath(target: ExportTarget, format: ExportFormat): string {
  switch (target.kind) {
    case 'device-history': {
      const path = `/api/beacon-device/history/mac/${part(target.mac)}/${format}`;
      return target.filterQuery ? `${path}?${target.filterQuery}` : path;
    }
    case 'travel-device-history':
      return target.code
        ? `/api/travels/localizator/${part(target.code)}/devices/${part(target.mac)}/history/${format}`
        : `/api/travels/${part(target.travelId)}/devices/${part(target.mac)}/history/${format}`;
    case 'travel':
      return `/api/travels/${part(target.travelId)}/html`;
  }
}

/** Asks for a report: the server queues it and answers its record at once (status 1). */
export function requestExport(target: ExportTarget, format: ExportFormat, signal?: AbortSignal): Promise<Report> {
  return apiRequest(exportPath(target, format), { schema: () => import('./schemas').then((schemas) => schemas.Report), signal });
}
