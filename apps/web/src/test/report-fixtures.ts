import { REPORT_STATUS_VIEW, type Report, type ReportStatusId } from '@sentinela/contract';

export function makeReport(index: number, status: ReportStatusId = 2, overrides: Partial<Report> = {}): Report {
  const n = String(index).padStart(2, '0');
  const id = `6f1c0000-0000-4000-8000-0000000000${n}`;
  const type = overrides.type ?? 'pdf';
  return {
    _id: id,
    kind: 'device-history',
    type,
    device: { name: `Sensor ${n}` },
    mac: `AA:BB:CC:DD:EE:${n}`,
    travel: null,
    status: REPORT_STATUS_VIEW[status],
    error: status === 3 ? 'Nenhuma leitura no período.' : null,
    filters: { dateInit: '2024-03-01T12:00:00.000Z', dateEnd: '2024-03-03T12:30:00.000Z' },
    created_at: '2024-03-03T15:00:00.000Z',
    updated_at: '2024-03-03T15:00:05.000Z',
    // A generated report's link (ADR 0070): capability, then the file's name without its type.
    download_url: status === 2 ? `/api/report/files/${id}/sdl_1709500000_${'A'.repeat(43)}/Sensor-${n}_2024-03-01_2024-03-03` : null,
    file_name: `Sensor-${n}_2024-03-01_2024-03-03.${type}`,
    user: { name: 'Maria Souza' },
    ...overrides,
  };
}
