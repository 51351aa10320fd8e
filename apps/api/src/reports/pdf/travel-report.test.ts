import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOrCreateSigningIdentity } from '../signing/certificate';
import { DEFAULT_SIGNATURE_INFO, signPdf } from '../signing/sign-pdf';
import { pageCount, pdfsig, pdftotext, signatureValidation } from '../testing/poppler';
import { sampleTravelReport } from '../testing/sample-input';
import { renderTravelReportPdf } from './travel-report';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sentinela-travel-report-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('renderTravelReportPdf (R1, R2)', () => {
  it('presents the travel, a line per device, then a section per device; signed like the device report', async () => {
    const input = sampleTravelReport({ devices: 3, readingsPerDevice: 300 });
    const identity = await loadOrCreateSigningIdentity({ dir: path.join(dir, 'certificate') });
    const file = path.join(dir, 'travel.pdf');
    await writeFile(file, await signPdf(await renderTravelReportPdf(input), identity, DEFAULT_SIGNATURE_INFO));

    expect(signatureValidation(await pdfsig(file))).toBe('Signature is Valid.');
    const first = await pdftotext(file, 1);
    expect(first).toContain('Relatório de viagem K7M2Q9XRTA');
    expect(first).toContain('Temperatura e umidade por dispositivo');
    expect(first).toMatch(/Código\s+K7M2Q9XRTA\s+Situação\s+Finalizada/);
    expect(first).toContain('Centro de distribuição, Rodovia Presidente Dutra km 225, Guarulhos - SP');
    expect(first).toContain('Hospital Santa Luíza, Av. Brasil 1500, Campinas - SP');
    expect(first).toMatch(/Responsável\s+Maria Eugênia/);
    expect(first).toMatch(/Início\s+02\/03\/2026 00:00:00/);
    expect(first).toMatch(/Posições registradas\s+300\s+Distância percorrida\s+97,4 km/);
    // The summary: one line per device with its reading count.
    for (let index = 1; index <= 3; index++) expect(first).toMatch(new RegExp(`Caixa térmica ${index}\\s+AC:23:3F:00:00:0${index}\\s+300\\b`));

    const pages = await pageCount(file);
    const all = await pdftotext(file, 1, pages);
    for (let index = 1; index <= 3; index++) expect(all).toContain(`Dispositivo ${index} de 3: Caixa térmica ${index}`);
    expect(all.match(/Temperatura cinética/g)).toHaveLength(3);
    expect(all.match(/Leituras registradas \(300\)/g)).toHaveLength(3);
    expect(all).toContain(`Página ${pages} de ${pages}`);
    expect(all).toContain('Relatório de viagem K7M2Q9XRTA'); // the running header of later pages
  });

  it('renders a travel whose devices have no readings yet', async () => {
    const input = sampleTravelReport({ devices: 2, readingsPerDevice: 0 });
    input.travel.startedAt = null;
    input.travel.finishedAt = null;
    const file = path.join(dir, 'empty-travel.pdf');
    await writeFile(file, await renderTravelReportPdf(input));
    const all = await pdftotext(file, 1, await pageCount(file));
    expect(all).toMatch(/Início\s+Não iniciada\s+Término\s+Em aberto/);
    expect(all.match(/Nenhuma leitura no período\./g)?.length).toBeGreaterThanOrEqual(2);
  });
});
