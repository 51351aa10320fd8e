import { REPORT_MESSAGES } from '@sentinela/contract';
import { describe, expect, it } from 'vitest';
import { startSession } from '../../lib/session';
import { captureDownloads, fileResponse } from '../../test/download';
import { errorResponse, jsonResponse, mockFetch } from '../../test/fetch';
import { makeSession } from '../../test/fixtures';
import { exportPath } from './request-export';
import { runExport, type ExportStage } from './export';
import { makeReport } from '../../test/report-fixtures';

const QUEUED = makeReport(1, 1);
const GENERATED = makeReport(1, 2);

describe('the export flow (R1)', () => {
  it('uses the export calls of the documents', () => {
    expect(exportPath({ kind: 'device-history', mac: 'AA:BB', filterQuery: 'minTemp=-5&isUtc=false' }, 'pdf')).toBe(
      '/api/beacon-device/history/mac/AA%3ABB/pdf?minTemp=-5&isUtc=false',
    );
    expect(exportPath({ kind: 'travel-device-history', travelId: 't1', mac: 'AA:BB' }, 'excel')).toBe(
      '/api/travels/t1/devices/AA%3ABB/history/excel',
    );
    expect(exportPath({ kind: 'travel', travelId: 't1' }, 'pdf')).toBe('/api/travels/t1/html');
  });

  it('asks for the report, polls it while it is generated, then downloads its file with the token', async () => {
    startSession(makeSession(3));
    const saved = captureDownloads();
    let polls = 0;
    const { requests } = mockFetch(({ url }) => {
      if (url.startsWith('/api/beacon-device/')) return jsonResponse(QUEUED);
      if (url === `/api/reports/${QUEUED._id}`) return jsonResponse(++polls < 3 ? QUEUED : GENERATED);
      if (url === GENERATED.download_url) return fileResponse(new Uint8Array([37, 80, 68, 70]), 'historico-sensor-01.pdf');
      return errorResponse(404, 'Rota não encontrada.');
    });
    const stages: ExportStage[] = [];

    const report = await runExport({ kind: 'device-history', mac: 'AA:BB', filterQuery: 'isUtc=false' }, 'pdf', {
      pollIntervalMs: 1,
      onStage: (stage) => stages.push(stage),
    });

    expect(report.status.id).toBe(2);
    expect(requests.map((r) => r.url)).toEqual([
      '/api/beacon-device/history/mac/AA%3ABB/pdf?isUtc=false',
      `/api/reports/${QUEUED._id}`,
      `/api/reports/${QUEUED._id}`,
      `/api/reports/${QUEUED._id}`,
      GENERATED.download_url,
    ]);
    expect(requests.at(-1)?.headers.authorization).toBe('Bearer token-123');
    expect(stages[0]).toBe('loading');
    expect(stages).toContain('generating');
    expect(stages.at(-1)).toBe('loading');
    expect(saved.map((file) => file.name)).toEqual(['historico-sensor-01.pdf']);
    expect(new Uint8Array(await saved[0]!.blob.arrayBuffer())).toEqual(new Uint8Array([37, 80, 68, 70]));
  });

  it('fails with the server reason when the job fails, and with the server text when the call is refused', async () => {
    startSession(makeSession(3));
    mockFetch(({ url }) =>
      url.startsWith('/api/travels/') ? jsonResponse(QUEUED) : jsonResponse(makeReport(1, 3, { error: 'Nenhuma leitura no período.' })),
    );
    await expect(runExport({ kind: 'travel', travelId: 't1' }, 'pdf', { pollIntervalMs: 1 })).rejects.toThrow(
      'Nenhuma leitura no período.',
    );

    mockFetch(() => errorResponse(403, 'Você não tem permissão para acessar este recurso.', 'FORBIDDEN'));
    await expect(runExport({ kind: 'travel', travelId: 't1' }, 'pdf')).rejects.toThrow(
      'Você não tem permissão para acessar este recurso.',
    );
  });

  it('gives up after its time limit, and stops when cancelled', async () => {
    startSession(makeSession(3));
    mockFetch(() => jsonResponse(QUEUED));
    await expect(runExport({ kind: 'travel', travelId: 't1' }, 'pdf', { pollIntervalMs: 1, timeoutMs: 20 })).rejects.toThrow(
      REPORT_MESSAGES.stillGenerating,
    );

    const controller = new AbortController();
    const running = runExport({ kind: 'travel', travelId: 't1' }, 'pdf', { pollIntervalMs: 50, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('cancelado')), 10);
    await expect(running).rejects.toThrow('cancelado');
  });
});
