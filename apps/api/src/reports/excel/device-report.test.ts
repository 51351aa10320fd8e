import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeStatistics } from '../statistics';
import { sampleDeviceReport } from '../testing/sample-input';
import { writeDeviceReportXlsx } from './device-report';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-xlsx-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function readBack(input: ReturnType<typeof sampleDeviceReport>, name: string) {
  const file = path.join(dir, name);
  await writeDeviceReportXlsx(input, file);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(file);
  return workbook;
}

/** The summary sheet as label → cell. */
function summary(workbook: ExcelJS.Workbook): Map<string, ExcelJS.Cell> {
  const cells = new Map<string, ExcelJS.Cell>();
  workbook.getWorksheet('Resumo')!.eachRow((row) => cells.set(String(row.getCell(1).value), row.getCell(2)));
  return cells;
}

describe('writeDeviceReportXlsx', () => {
  it('writes typed readings: local-time dates, numbers, and whether each is out of range', async () => {
    const input = sampleDeviceReport({ readings: 700, travel: true });
    const workbook = await readBack(input, 'readings.xlsx');
    expect(workbook.worksheets.map((sheet) => sheet.name)).toEqual(['Resumo', 'Leituras', 'Excursões', 'Alarmes', 'Lacunas']);

    const sheet = workbook.getWorksheet('Leituras')!;
    expect(sheet.rowCount).toBe(701);
    expect(sheet.getRow(1).values).toEqual([undefined, 'Data/Hora', 'Temperatura (°C)', 'Umidade (%)', 'Bateria (%)', 'Latitude', 'Longitude', 'Fora da faixa']);
    expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });

    input.readings.forEach((reading, index) => {
      const row = sheet.getRow(index + 2);
      const when = row.getCell(1);
      expect(when.value).toBeInstanceOf(Date);
      // Excel dates carry no zone: the cell holds the São Paulo wall time (UTC−3), shown with seconds.
      expect((when.value as Date).getTime()).toBe(reading.ts.getTime() - 3 * 3_600_000);
      expect(when.numFmt).toBe('dd/mm/yyyy hh:mm:ss');
      expect(row.getCell(2).value).toBe(reading.temperature);
      expect(row.getCell(3).value).toBe(reading.humidity);
      expect(row.getCell(4).value).toBe(reading.battery);
      expect(row.getCell(5).value).toBe(reading.lat);
      expect(row.getCell(6).value).toBe(reading.lng);
      const out = reading.temperature! > 8 || reading.temperature! < 2 || (reading.humidity !== null && (reading.humidity > 75 || reading.humidity < 30));
      expect(row.getCell(7).value).toBe(out ? 'Sim' : 'Não');
      if (reading.temperature! > 8) expect(row.getCell(2).font).toMatchObject({ bold: true });
    });
    // The first reading is midnight in São Paulo: 02/03/2026 00:00:00 on screen.
    expect((sheet.getRow(2).getCell(1).value as Date).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    // Reading 13 has no humidity: an empty cell, not a zero.
    expect(sheet.getRow(15).getCell(3).value).toBeNull();
  });

  it('summarises the report with the same statistics as the PDF, typed', async () => {
    const input = sampleDeviceReport({ readings: 700, travel: true });
    const stats = computeStatistics(input.readings, input.limits);
    const cells = summary(await readBack(input, 'summary.xlsx'));

    expect(cells.get('Empresa')?.value).toBe('Farmácia São João Ltda.');
    expect(cells.get('Dispositivo')?.value).toBe('Câmara fria nº 2');
    expect(cells.get('MAC')?.value).toBe('AC:23:3F:A1:B2:C3');
    expect(cells.get('Viagem')?.value).toBe('K7M2Q9XRTA');
    expect(cells.get('Fuso horário')?.value).toBe('America/Sao_Paulo');
    expect((cells.get('Período: início')?.value as Date).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(cells.get('Limite máximo de temperatura (°C)')?.value).toBe(8);
    expect(cells.get('Leituras')?.value).toBe(700);
    expect(cells.get('Temperatura máxima (°C)')?.value).toBe(stats.temperature.max);
    expect(cells.get('Temperatura cinética média (MKT) (°C)')?.value).toBeCloseTo(stats.temperature.mkt!, 10);
    expect(cells.get('Temperatura cinética média (MKT) (°C)')?.numFmt).toBe('0.00');
    expect(cells.get('Umidade média (%)')?.value).toBeCloseTo(stats.humidity.mean!, 10);
    expect(cells.get('Excursões')?.value).toBe(stats.excursions.length);
    expect(cells.get('Tempo fora da faixa (h:mm:ss)')?.numFmt).toBe('[h]:mm:ss');
    expect(cells.get('Emitido por')?.value).toBe('Ana Luíza Gonçalves (ana.goncalves)');
    expect(cells.get('Relatório')?.value).toBe(input.reportId);
    expect((cells.get('Gerado em')?.value as Date).toISOString()).toBe('2026-03-10T10:45:30.000Z');
  });

  it('lists excursions and alarms with their acknowledgement', async () => {
    const input = sampleDeviceReport({ readings: 700 });
    const stats = computeStatistics(input.readings, input.limits);
    const workbook = await readBack(input, 'alarms.xlsx');

    const excursions = workbook.getWorksheet('Excursões')!;
    expect(excursions.rowCount).toBe(stats.excursions.length + 1);
    expect(excursions.getRow(2).getCell(2).value).toBe('Temperatura');
    expect(excursions.getRow(2).getCell(3).value).toBe('Acima do máximo');
    expect(excursions.getRow(2).getCell(7).value).toBe(stats.excursions[0]!.extreme);

    const alarms = workbook.getWorksheet('Alarmes')!;
    expect(alarms.rowCount).toBe(3);
    const acknowledged = alarms.getRow(2);
    expect(acknowledged.getCell(2).value).toBe('Temperatura alta');
    expect(acknowledged.getCell(4).value).toBe(8.3);
    expect(acknowledged.getCell(8).value).toBe('Encerrado');
    expect((acknowledged.getCell(9).value as Date).toISOString()).toBe('2026-03-02T00:42:00.000Z');
    expect(acknowledged.getCell(10).value).toBe('João Conceição');
    const open = alarms.getRow(3);
    expect(open.getCell(8).value).toBe('Ativo');
    expect(open.getCell(9).value).toBeNull();
    expect(open.getCell(10).value).toBe('Não reconhecido');
  });

  it('writes an empty period as headers only', async () => {
    const input = { ...sampleDeviceReport({ readings: 0 }), alarms: [] };
    const workbook = await readBack(input, 'empty.xlsx');
    expect(workbook.getWorksheet('Leituras')!.rowCount).toBe(1);
    expect(summary(workbook).get('Leituras')?.value).toBe(0);
    expect(summary(workbook).get('Primeira leitura')?.value).toBeNull();
  });
});
