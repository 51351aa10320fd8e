import { describe, expect, it } from 'vitest';
import { reportFileName } from '../../components/report-export/download';
import { makeReport } from '../../test/report-fixtures';
import { reportGeneratedAt, reportName, reportPeriod, reportType } from './view';

// Times are shown in São Paulo (UTC-3), pinned by the test config.
describe('report columns (R3)', () => {
  it('Período: DD/MM/YYYY HH:mm – DD/MM/YYYY HH:mm in local time, -- without a period', () => {
    expect(reportPeriod(makeReport(1))).toBe('01/03/2024 09:00 – 03/03/2024 09:30');
    expect(reportPeriod(makeReport(1, 2, { filters: { dateInit: null, dateEnd: null } }))).toBe('--');
    expect(reportPeriod(makeReport(1, 2, { filters: { dateInit: null, dateEnd: '2024-03-03T12:30:00.000Z' } }))).toBe(
      '-- – 03/03/2024 09:30',
    );
  });

  it('Gerado em: the update time only for a generated report', () => {
    expect(reportGeneratedAt(makeReport(1, 2))).toBe('03/03/2024 12:00:05');
    expect(reportGeneratedAt(makeReport(1, 1))).toBe('--');
    expect(reportGeneratedAt(makeReport(1, 3))).toBe('--');
  });

  it('Nome: the device, or the travel for a whole-travel report; Tipo: the file type', () => {
    expect(reportName(makeReport(4))).toBe('Sensor 04');
    expect(reportName(makeReport(4, 2, { kind: 'travel', device: null, mac: null, travel: { _id: 't', code: 'AUR7K2M9QX' } }))).toBe(
      'Viagem AUR7K2M9QX',
    );
    expect(reportType(makeReport(4, 2, { type: 'xlsx' }))).toBe('XLSX');
  });

  it('names a file by device, period and type: the server\'s file_name, the last segment of its address plus its type (R4)', () => {
    expect(reportFileName(makeReport(7))).toBe('Sensor-07_2024-03-01_2024-03-03.pdf');
    const { file_name: _, ...withoutName } = makeReport(7);
    expect(reportFileName(withoutName)).toBe('Sensor-07_2024-03-01_2024-03-03.pdf');
    expect(reportFileName({ ...withoutName, type: 'xlsx', download_url: '/api/travel-report/files/abc/sdl_1_x/Viagem-AUR7K2M9QX_2024-03-01?x=1' })).toBe('Viagem-AUR7K2M9QX_2024-03-01.xlsx');
  });
});
