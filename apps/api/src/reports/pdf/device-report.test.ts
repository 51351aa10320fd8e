import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningIdentity, type SigningIdentity } from '../signing/certificate';
import { DEFAULT_SIGNATURE_INFO, signPdf } from '../signing/sign-pdf';
import { inkCoverage, pageCount, pdfsig, pdftotext, renderGray, signatureValidation } from '../testing/poppler';
import { sampleDeviceReport } from '../testing/sample-input';
import { renderDeviceReportPdf } from './device-report';

let dir: string;
let identity: SigningIdentity;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-device-report-'));
  identity = await loadOrCreateSigningIdentity({ dir: path.join(dir, 'certificate') });
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writePdf(name: string, bytes: Buffer): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, bytes);
  return file;
}

describe('renderDeviceReportPdf: what auditors expect (R2)', () => {
  it('prints what auditors look for on the first page, in local time and with accents intact', async () => {
    const input = sampleDeviceReport({ readings: 600, travel: true });
    const file = await writePdf('first-page.pdf', await renderDeviceReportPdf(input));
    const text = await pdftotext(file, 1);

    expect(text).toContain('Sentinela');
    expect(text).toContain('Relatório de temperatura e umidade');
    expect(text).toContain('Farmácia São João Ltda.');
    expect(text).toContain('Câmara fria nº 2');
    expect(text).toContain('AC:23:3F:A1:B2:C3');
    expect(text).toContain('SN-000142');
    // The first reading is 03:00 UTC: midnight in São Paulo.
    expect(text).toMatch(/Período\s+02\/03\/2026 00:00:00 a 02\/03\/2026 10:00:00 \(America\/Sao_Paulo\)/);
    expect(text).toContain('K7M2Q9XRTA (Em andamento)');
    expect(text).toContain('Centro de distribuição, Guarulhos - SP -> Hospital Santa Luíza, Campinas - SP');
    expect(text).toContain('2,00 a 8,00 °C');
    expect(text).toContain('30,00 a 75,00 %');
    for (const label of ['Leituras', 'Mínima', 'Máxima', 'Média', 'Temperatura cinética', 'média (MKT)', 'Tempo fora da faixa', 'Excursões']) expect(text).toContain(label);
    expect(text).toMatch(/Leituras\s+600\b/);
    expect(text).toContain('Gráfico de temperatura e umidade');
    expect(text).toContain('Data/hora local (America/Sao_Paulo)');
    // Coverage beside the statistics (ADR 0035); the excursions table follows the chart, on the next page.
    expect(text).toMatch(/Cobertura dos dados\s+Cobertura\s+100 % \(600 de 600 leituras esperadas\)/);
    expect(text).toMatch(/Lacunas\s+Nenhuma/);
    expect(await pdftotext(file, 2)).toContain('Acima do máximo');
    expect(text).toMatch(/Gerado em 10\/03\/2026 10:45:30 \(America\/Sao_Paulo\) por Ana Luíza Gonçalves \(ana\.goncalves\)/);
    expect(text).toContain('Relatório 6f1c2d3e-4b5a-4c7d-8e9f-0a1b2c3d4e5f');
    expect(text).toMatch(/Página 1 de \d+/);
  });

  it('draws a first page that is not blank: text, tables and the chart put ink on it', async () => {
    const file = await writePdf('image.pdf', await renderDeviceReportPdf(sampleDeviceReport({ readings: 2000 })));
    const image = await renderGray(file, 1, 30);
    // A4 (210 × 297 mm) at 30 dpi: 248 × 351 pixels, give or take pdftoppm's rounding.
    expect(Math.abs(image.width - 248)).toBeLessThanOrEqual(1);
    expect(Math.abs(image.height - 351)).toBeLessThanOrEqual(1);
    const coverage = inkCoverage(image);
    expect(coverage).toBeGreaterThan(0.02);
    expect(coverage).toBeLessThan(0.5);
  });

  it('numbers every page and lists every reading, values out of range included', async () => {
    const input = sampleDeviceReport({ readings: 1500 });
    const file = await writePdf('pages.pdf', await renderDeviceReportPdf(input));
    const pages = await pageCount(file);
    expect(pages).toBeGreaterThan(20);
    const all = await pdftotext(file, 1, pages);
    for (let page = 1; page <= pages; page++) expect(all).toContain(`Página ${page} de ${pages}`);
    // Every reading's local time appears once in the readings table (plus the first/last in the statistics).
    const times = all.match(/\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d +-?\d+,\d\d/g) ?? [];
    expect(times).toHaveLength(1500);
    // 00:09 local is 8,19 °C, the first value above the 8 °C limit; its row reads in full.
    expect(all).toMatch(/02\/03\/2026 00:09:00\s+8,19\s+71,99\s+100\s+-23,550610\s+-46,633200/);
  });

  it('renders an empty period with the statement that there were no readings', async () => {
    const input = { ...sampleDeviceReport({ readings: 0 }), alarms: [] };
    const file = await writePdf('empty.pdf', await renderDeviceReportPdf(input));
    expect(await pageCount(file)).toBe(1);
    const text = await pdftotext(file, 1);
    expect(text).toContain('Nenhuma leitura no período.');
    expect(text).toContain('Nenhuma excursão no período.');
    expect(text).toContain('Nenhum alarme no período.');
    expect(text).toContain('Página 1 de 1');
  });

  it('prints user text the built-in font cannot encode as look-alikes, never as garbage', async () => {
    const input = sampleDeviceReport({ readings: 10 });
    input.device.name = 'Doca → Gdańsk ✓ Łódź';
    input.valueFilters = { temperature: { min: 0, max: 10 }, humidity: { min: null, max: null } };
    const file = await writePdf('winansi.pdf', await renderDeviceReportPdf(input));
    const text = await pdftotext(file, 1);
    // → has an ASCII look-alike, ń loses its accent, ✓ and Ł have no equivalent, ó is Latin-1 already.
    expect(text).toContain('Doca -> Gdansk ? ?ódz');
    expect(text).toContain('Somente leituras com temperatura 0,00 a 10,00 °C');
  });

  it('lists alarms with their acknowledgement, or "Não reconhecido"', async () => {
    const file = await writePdf('alarms.pdf', await renderDeviceReportPdf(sampleDeviceReport({ readings: 400 })));
    // Wrapped cells come out line by line in layout mode: assert on what one line holds.
    const text = await pdftotext(file, 1, 3);
    expect(text).toMatch(/02\/03\/2026 00:30:00\s+Temperatura\s+Temperatura acima do limite\s+8,30 a 9,40 °C\s+Encerrado\s+Por João Conceição em/);
    expect(text).toContain('câmara fria aberta durante o');
    expect(text).toMatch(/02\/03\/2026 05:00:00\s+Sem dados\s+Sem dados há mais de 30\s+—\s+Ativo\s+Não reconhecido/);
  });
});

describe('signed device report (R6)', () => {
  it('carries a signature pdfsig validates, and that one changed byte breaks', async () => {
    const signed = await signPdf(await renderDeviceReportPdf(sampleDeviceReport({ readings: 1000 })), identity, DEFAULT_SIGNATURE_INFO);
    const file = await writePdf('signed.pdf', signed);
    const report = await pdfsig(file);
    expect(signatureValidation(report)).toBe('Signature is Valid.');
    expect(report).toContain('Signer Certificate Common Name: Sentinela - Assinatura de relatórios');
    expect(report).toContain('Total document signed');

    // One byte of the document information, well inside the signed range.
    const tampered = Buffer.from(await readFile(file));
    const at = tampered.indexOf('(Sentinela)');
    expect(at).toBeGreaterThan(0);
    tampered[at + 1] = 'Z'.charCodeAt(0);
    const tamperedReport = await pdfsig(await writePdf('tampered.pdf', tampered));
    expect(signatureValidation(tamperedReport)).toBe('Digest Mismatch.');
  });
});
