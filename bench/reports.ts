/**
 * Report rendering benchmark (issue 5): the pure renderers and the signature, on synthetic data, in this process.
 *   - device PDF, 10,000 readings, rendered and signed (median and p95 of --runs)   target < 1 s
 *   - device spreadsheet, 100,000 readings (time, and peak RSS above the start)       target < 3 s
 *   - travel PDF, 3 devices × 5,000 readings, rendered and signed
 * Usage: tsx bench/reports.ts [--runs 10] [--pdf-readings 10000] [--xlsx-readings 100000] [--travel-devices 3]
 *        [--travel-readings 5000]
 * CPU time is printed next to wall time: other work on the machine stretches the wall time, not the CPU time.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { writeDeviceReportXlsx } from '../apps/api/src/reports/excel/device-report';
import { renderDeviceReportPdf } from '../apps/api/src/reports/pdf/device-report';
import { renderTravelReportPdf } from '../apps/api/src/reports/pdf/travel-report';
import { loadOrCreateSigningIdentity } from '../apps/api/src/reports/signing/certificate';
import { DEFAULT_SIGNATURE_INFO, signPdf } from '../apps/api/src/reports/signing/sign-pdf';
import { sampleDeviceReport, sampleTravelReport } from '../apps/api/src/reports/testing/sample-input';

export interface ReportRenderBenchOptions {
  runs?: number;
  pdfReadings?: number;
  xlsxReadings?: number;
  travelDevices?: number;
  travelReadings?: number;
  /** Progress lines (default: none). */
  log?: (line: string) => void;
}

export interface Spread {
  median: number;
  p95: number;
}

export interface ReportRenderBenchResult {
  machine: { cores: number; model: string; loadAverage: { before: number; after: number } };
  devicePdf: { readings: number; runs: number; pages: number; bytes: number; renderMs: Spread; signMs: Spread; totalMs: Spread; cpuMs: Spread; targetMs: number; met: boolean };
  xlsx: { readings: number; ms: number; cpuMs: number; peakRssDeltaMb: number; bytes: number; targetMs: number; met: boolean };
  travelPdf: { devices: number; readingsPerDevice: number; runs: number; pages: number; bytes: number; totalMs: Spread; cpuMs: Spread };
}

const PDF_TARGET_MS = 1000;
const XLSX_TARGET_MS = 3000;

export async function runReportRenderBench(options: ReportRenderBenchOptions = {}): Promise<ReportRenderBenchResult> {
  const runs = options.runs ?? 10;
  const pdfReadings = options.pdfReadings ?? 10_000;
  const xlsxReadings = options.xlsxReadings ?? 100_000;
  const travelDevices = options.travelDevices ?? 3;
  const travelReadings = options.travelReadings ?? 5_000;
  const log = options.log ?? (() => undefined);
  const dir = await mkdtemp(path.join(tmpdir(), 'sentinela-bench-reports-'));
  const loadBefore = loadavg()[0]!;
  try {
    const identity = await loadOrCreateSigningIdentity({ dir: path.join(dir, 'certificate') });

    log(`PDF do dispositivo: ${pdfReadings} leituras, ${runs} execuções…`);
    const deviceInput = sampleDeviceReport({ readings: pdfReadings });
    const device = await timeRuns(runs, async () => {
      const pdf = await renderDeviceReportPdf(deviceInput);
      const rendered = performance.now();
      const signed = await signPdf(pdf, identity, DEFAULT_SIGNATURE_INFO);
      return { bytes: signed, signMs: performance.now() - rendered };
    });

    log(`Planilha: ${xlsxReadings} leituras…`);
    const xlsx = await timeXlsx(xlsxReadings, path.join(dir, 'readings.xlsx'));

    log(`PDF da viagem: ${travelDevices} × ${travelReadings} leituras…`);
    const travelInput = sampleTravelReport({ devices: travelDevices, readingsPerDevice: travelReadings });
    const travelRuns = Math.max(3, Math.ceil(runs / 2));
    const travel = await timeRuns(travelRuns, async () => ({ bytes: await signPdf(await renderTravelReportPdf(travelInput), identity, DEFAULT_SIGNATURE_INFO), signMs: 0 }));

    const devicePdfTotal = spread(device.totalMs);
    return {
      machine: { cores: cpus().length, model: cpus()[0]?.model ?? 'unknown', loadAverage: { before: round(loadBefore), after: round(loadavg()[0]!) } },
      devicePdf: {
        readings: pdfReadings,
        runs,
        pages: pageCount(device.last),
        bytes: device.last.length,
        renderMs: spread(device.totalMs.map((total, i) => total - device.signMs[i]!)),
        signMs: spread(device.signMs),
        totalMs: devicePdfTotal,
        cpuMs: spread(device.cpuMs),
        targetMs: PDF_TARGET_MS,
        met: devicePdfTotal.median < PDF_TARGET_MS,
      },
      xlsx: { readings: xlsxReadings, ...xlsx, targetMs: XLSX_TARGET_MS, met: xlsx.ms < XLSX_TARGET_MS },
      travelPdf: { devices: travelDevices, readingsPerDevice: travelReadings, runs: travelRuns, pages: pageCount(travel.last), bytes: travel.last.length, totalMs: spread(travel.totalMs), cpuMs: spread(travel.cpuMs) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Runs `work` once to warm up (JIT, fonts, the signer's P12), then `runs` times, timing each. */
async function timeRuns(runs: number, work: () => Promise<{ bytes: Buffer; signMs: number }>) {
  await work();
  const totalMs: number[] = [];
  const signMs: number[] = [];
  const cpuMs: number[] = [];
  let last: Buffer = Buffer.alloc(0);
  for (let run = 0; run < runs; run++) {
    const cpu = process.cpuUsage();
    const started = performance.now();
    const result = await work();
    totalMs.push(performance.now() - started);
    const used = process.cpuUsage(cpu);
    cpuMs.push((used.user + used.system) / 1000);
    signMs.push(result.signMs);
    last = result.bytes;
  }
  return { totalMs, signMs, cpuMs, last };
}

/** One spreadsheet write, with the RSS sampled every 5 ms (the writer yields to the event loop as it goes). */
async function timeXlsx(readings: number, file: string) {
  const input = sampleDeviceReport({ readings });
  const baseline = process.memoryUsage.rss();
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  const cpu = process.cpuUsage();
  const started = performance.now();
  try {
    await writeDeviceReportXlsx(input, file);
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  peak = Math.max(peak, process.memoryUsage.rss());
  return { ms: round(ms), cpuMs: round((used.user + used.system) / 1000), peakRssDeltaMb: round((peak - baseline) / 1048576), bytes: (await stat(file)).size };
}

function spread(values: readonly number[]): Spread {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
  return { median: round(at(50)), p95: round(at(95)) };
}

/** Pages of a pdfkit document: its page objects. */
function pageCount(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Type \/Page\b(?!s)/g)?.length ?? 0;
}

function round(value: number): number {
  return Math.round(value * 10) / 10;
}

function printTable(result: ReportRenderBenchResult): void {
  const { devicePdf: pdf, xlsx, travelPdf: travel, machine } = result;
  const ok = (met: boolean) => (met ? 'ok' : 'ACIMA DA META');
  const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('pt-BR')} KiB`;
  console.log(`
| Medida | Resultado | Meta |
|---|---|---|
| PDF do dispositivo, ${pdf.readings.toLocaleString('pt-BR')} leituras, gerado e assinado (${pdf.runs} execuções) | mediana ${pdf.totalMs.median} ms, p95 ${pdf.totalMs.p95} ms (${ok(pdf.met)}) | < ${pdf.targetMs} ms |
| … dos quais geração / assinatura | mediana ${pdf.renderMs.median} / ${pdf.signMs.median} ms; p95 ${pdf.renderMs.p95} / ${pdf.signMs.p95} ms | — |
| … tempo de CPU | mediana ${pdf.cpuMs.median} ms, p95 ${pdf.cpuMs.p95} ms | — |
| … arquivo | ${pdf.pages} páginas, ${kb(pdf.bytes)} | — |
| Planilha, ${xlsx.readings.toLocaleString('pt-BR')} leituras | ${xlsx.ms} ms, CPU ${xlsx.cpuMs} ms (${ok(xlsx.met)}) | < ${xlsx.targetMs} ms |
| … pico de memória (RSS acima do início) | ${xlsx.peakRssDeltaMb} MiB; arquivo ${kb(xlsx.bytes)} | — |
| PDF da viagem, ${travel.devices} × ${travel.readingsPerDevice.toLocaleString('pt-BR')} leituras, gerado e assinado (${travel.runs} execuções) | mediana ${travel.totalMs.median} ms, p95 ${travel.totalMs.p95} ms; CPU ${travel.cpuMs.median} ms; ${travel.pages} páginas, ${kb(travel.bytes)} | — |

Máquina: ${machine.cores} núcleos (${machine.model}); load average (1 min) ${machine.loadAverage.before} → ${machine.loadAverage.after}: outra carga na máquina alonga o tempo de relógio, não o de CPU.`);
}

async function main() {
  const { values } = parseArgs({
    options: {
      runs: { type: 'string', default: '10' },
      'pdf-readings': { type: 'string', default: '10000' },
      'xlsx-readings': { type: 'string', default: '100000' },
      'travel-devices': { type: 'string', default: '3' },
      'travel-readings': { type: 'string', default: '5000' },
    },
  });
  console.log(`Benchmark de relatórios: ${cpus().length} núcleos (${cpus()[0]?.model ?? 'unknown'}), load average ${loadavg()[0]!.toFixed(2)}`);
  const result = await runReportRenderBench({
    runs: Number(values.runs),
    pdfReadings: Number(values['pdf-readings']),
    xlsxReadings: Number(values['xlsx-readings']),
    travelDevices: Number(values['travel-devices']),
    travelReadings: Number(values['travel-readings']),
    log: (line) => console.log(line),
  });
  printTable(result);
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
