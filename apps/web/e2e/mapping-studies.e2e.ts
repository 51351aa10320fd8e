import { readFile } from 'node:fs/promises';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectActionsInView, launchBrowser, login, newPage, screenshot } from './browser';

/** X12 (issue 24 point 4, ADR 0083): an administrator starts a thermal mapping study under Locais and downloads its PDF. */
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const PHONE = { width: 390, height: 844 };

/** A datetime-local value `hoursAgo` hours before now, in the browser's (and this process's) zone. */
function local(hoursAgo: number): string {
  const date = new Date(Date.now() - hoursAgo * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

async function openSection(page: Page) {
  await login(page, 'aurora.adm');
  await page.waitForURL('**/my-devices');
  await page.goto('/locations');
  await page.getByRole('heading', { name: 'Estudos de mapeamento térmico' }).waitFor();
}

describe('thermal mapping studies (X12)', () => {
  it('X12 an admin starts a study of two sensors under Locais, the form answers in pt-BR, and the signed PDF downloads', async () => {
    const { context, page } = await newPage(browser);
    await openSection(page);
    await page.getByText(/Nenhum estudo de mapeamento térmico/).waitFor();
    await screenshot(page, 'mapping-studies-empty-desktop');

    await page.getByRole('button', { name: 'Novo estudo' }).click();
    const dialog = page.getByRole('dialog', { name: 'Novo estudo de mapeamento térmico' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Iniciar estudo' }).click();
    await dialog.getByText('Informe o início e o fim do estudo.').waitFor();
    await dialog.getByLabel('Início').fill(local(30));
    await dialog.getByLabel('Fim').fill(local(2));
    await dialog.getByRole('button', { name: 'Iniciar estudo' }).click();
    await dialog.getByText('Informe o nome do estudo.').waitFor();
    await dialog.getByLabel('Nome do estudo').fill('Câmara fria — qualificação');
    await dialog.getByRole('button', { name: 'Iniciar estudo' }).click();
    await dialog.getByText(/Escolha ao menos 2 sensores/).waitFor();
    await screenshot(page, 'mapping-studies-form-error-desktop');

    await dialog.getByLabel('Sensores').click();
    await page.getByRole('option', { name: /Câmara Fria Matriz/ }).click();
    await page.getByRole('option', { name: /Freezer Expedição/ }).click();
    await dialog.getByLabel('Nome do estudo').click();
    await dialog.getByRole('button', { name: 'Iniciar estudo' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const row = page.getByRole('row').filter({ hasText: 'Câmara fria — qualificação' });
    await row.getByText('Gerado').waitFor({ timeout: 120_000 });
    await screenshot(page, 'mapping-studies-list-desktop');
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), row.getByRole('button', { name: /Baixar PDF/ }).click()]);
    expect(download.suggestedFilename()).toMatch(/^Mapeamento-Camara-fria-qualificacao_.*\.pdf$/);
    const bytes = await readFile(await download.path());
    // Kept beside the screenshots, for a person to read the report itself.
    await download.saveAs(`${import.meta.dirname}/../../../.tmp/screenshots/mapping-study.pdf`);
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    await context.close();

    // A phone: the section and the form fit 390 px; the study is a card (ADR 0090), no table, its Baixar PDF in view.
    const phone = await newPage(browser, PHONE);
    await openSection(phone.page);
    const card = phone.page.getByTestId('study-card').filter({ hasText: 'Câmara fria — qualificação' });
    await card.waitFor();
    expect(await phone.page.getByTestId('mapping-studies').getByRole('table').count()).toBe(0);
    expect(await card.innerText()).toMatch(/Local: .+\nPeríodo: \d{2}\/\d{2}\/\d{4} \d{2}:\d{2} a \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}\nSensores: 2\nFaixa: /);
    await expectActionsInView(card, PHONE.width);
    await screenshot(phone.page, 'mapping-studies-list-phone');
    await phone.page.getByRole('button', { name: 'Novo estudo' }).click();
    await phone.page.getByRole('dialog', { name: 'Novo estudo de mapeamento térmico' }).waitFor();
    await screenshot(phone.page, 'mapping-studies-form-phone');
    await phone.context.close();
  }, 300_000);
});
