/**
 * The device history report (R1/R2): one device over a period, optionally within a travel. Unsigned: the caller
 * signs the bytes (signing/sign-pdf.ts) before storing them.
 */
import { zonedClock } from '../format';
import { computeStatistics } from '../statistics';
import { generatedLine, REPORT_TEXTS as T } from '../texts';
import type { DeviceReportInput, TravelSummary } from '../types';
import { deviceFields, drawDeviceBody } from './device-section';
import { drawFields, type Field, renderDocument } from './layout';

export async function renderDeviceReportPdf(input: DeviceReportInput): Promise<Buffer> {
  const clock = zonedClock(input.timeZone);
  const stats = computeStatistics(input.readings, input.limits);
  return renderDocument(
    {
      meta: {
        title: `${T.deviceTitle} - ${input.device.name}`,
        subject: `${input.device.name} (${input.device.mac}), ${clock.dateTime(input.period.from)} a ${clock.dateTime(input.period.to)}`,
        keywords: `Sentinela, ${input.reportId}`,
        createdAt: input.generatedAt,
      },
      heading: { title: T.deviceTitle, reportId: input.reportId },
      furniture: {
        runningTitle: `${T.deviceTitle} - ${input.device.name} (${input.device.mac})`,
        generated: generatedLine(clock.dateTime(input.generatedAt), input.timeZone, input.issuer),
        reportId: input.reportId,
      },
    },
    (doc) => {
      const fields: Field[] = [{ label: T.enterprise, value: input.enterprise?.name ?? '—', wide: true }, ...deviceFields(input, clock)];
      if (input.travel) fields.push(...travelLineFields(input.travel));
      drawFields(doc, fields);
      drawDeviceBody(doc, input, stats, clock);
    },
  );
}

/** The travel a device report is about, in the identification block. */
function travelLineFields(travel: TravelSummary): Field[] {
  return [
    { label: T.travel, value: `${travel.code} (${travel.status})` },
    { label: T.responsible, value: travel.responsible ?? '—' },
    { label: T.route, value: `${travel.origin} -> ${travel.destination}`, wide: true },
  ];
}
