import { createHash, randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writeDeviceReportXlsx } from '../../../reports/excel/device-report';
import { renderDeviceReportPdf } from '../../../reports/pdf/device-report';
import { renderTravelReportPdf } from '../../../reports/pdf/travel-report';
import { renderMappingReportPdf } from '../../../reports/pdf/mapping-report';
import type { SigningIdentity } from '../../../reports/signing/certificate';
import { DEFAULT_SIGNATURE_INFO, signPdfWithTimestamp, type TimestampOutcome } from '../../../reports/signing/sign-pdf';
import type { Timestamper } from '../../../reports/signing/tsa-client';
import { unpackReadings, type RenderedTimestamp, type RenderResult, type RenderTask } from './render-task';

/**
 * Renders one report into its file: PDFs are signed with the platform's certificate, and the SHA-256 is taken of
 * the final bytes on disk. The file appears under its name only when complete (written aside, then renamed).
 */
export async function renderToFile(task: RenderTask, identity: SigningIdentity, timestamper?: Timestamper): Promise<RenderResult> {
  await mkdir(path.dirname(task.outputPath), { recursive: true });
  const partial = `${task.outputPath}.${randomBytes(4).toString('hex')}.part`;
  let timestamp: RenderedTimestamp = { status: 'off' };
  try {
    if (task.kind === 'device-xlsx') {
      await writeDeviceReportXlsx({ ...task.input, readings: unpackReadings(task.input.readings) }, partial);
    } else {
      const pdf =
        task.kind === 'device-pdf'
          ? await renderDeviceReportPdf({ ...task.input, readings: unpackReadings(task.input.readings) })
          : task.kind === 'mapping-pdf'
            ? await renderMappingReportPdf({ ...task.input, sensors: task.input.sensors.map((s) => ({ ...s, readings: unpackReadings(s.readings) })) })
            : await renderTravelReportPdf({ ...task.input, devices: task.input.devices.map((d) => ({ ...d, readings: unpackReadings(d.readings) })) });
      const signed = await signPdfWithTimestamp(pdf, identity, DEFAULT_SIGNATURE_INFO, timestamper);
      timestamp = renderedTimestamp(signed.timestamp);
      await writeFile(partial, signed.data);
    }
    const result = { size: (await stat(partial)).size, sha256: await sha256OfFile(partial), timestamp };
    await rename(partial, task.outputPath);
    return result;
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  }
}

async function sha256OfFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The outcome as plain data: it crosses from the render thread to the main thread. */
export function renderedTimestamp(outcome: TimestampOutcome): RenderedTimestamp {
  if (outcome.status === 'off') return outcome;
  if (outcome.status === 'signature') return { status: 'signature', time: outcome.info.time.toISOString(), authority: outcome.info.authority };
  return { status: 'missing', reason: outcome.error instanceof Error ? outcome.error.message : String(outcome.error) };
}
