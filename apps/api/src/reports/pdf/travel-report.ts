/**
 * The travel report (R1): the travel, a summary line per device, then one section per device with the same
 * statistics, chart, excursions, alarms and readings as the device report. Unsigned, like the device report.
 */
import { formatCount, formatDecimal, formatDuration, formatOptionalDecimal, type ZonedClock, zonedClock } from '../format';
import { computeStatistics, type ReportStatistics } from '../statistics';
import { generatedLine, REPORT_TEXTS as T } from '../texts';
import type { TravelReportInput } from '../types';
import { deviceFields, type DeviceSection, drawDeviceBody } from './device-section';
import { drawFields, drawSectionTitle, type Field, newPage, renderDocument } from './layout';
import { type Column, drawTable } from './tables';

export async function renderTravelReportPdf(input: TravelReportInput): Promise<Buffer> {
  const clock = zonedClock(input.timeZone);
  const { travel } = input;
  const statistics = input.devices.map((device) => computeStatistics(device.readings, device.limits));
  return renderDocument(
    {
      meta: {
        title: `${T.travelTitle} ${travel.code}`,
        subject: `${travel.origin} -> ${travel.destination}`,
        keywords: `Sentinela, ${input.reportId}, ${travel.code}`,
        createdAt: input.generatedAt,
      },
      heading: { title: `${T.travelTitle} ${travel.code}`, subtitle: T.travelSubtitle, reportId: input.reportId },
      furniture: {
        runningTitle: `${T.travelTitle} ${travel.code}`,
        generated: generatedLine(clock.dateTime(input.generatedAt), input.timeZone, input.issuer),
        reportId: input.reportId,
      },
    },
    (doc) => {
      drawFields(doc, travelFields(input, clock));
      drawSectionTitle(doc, `${T.devices} (${input.devices.length})`);
      drawDeviceSummary(doc, input.devices, statistics);
      input.devices.forEach((device, index) => {
        newPage(doc);
        drawSectionTitle(doc, `${T.device} ${index + 1} de ${input.devices.length}: ${device.device.name}`);
        drawFields(doc, deviceFields(device, clock));
        drawDeviceBody(doc, device, statistics[index]!, clock);
      });
    },
  );
}

function travelFields(input: TravelReportInput, clock: ZonedClock): Field[] {
  const { travel, route } = input;
  return [
    { label: T.enterprise, value: input.enterprise?.name ?? '—', wide: true },
    { label: T.travelCode, value: travel.code },
    { label: T.status, value: travel.status },
    { label: T.origin, value: travel.origin, wide: true },
    { label: T.destination, value: travel.destination, wide: true },
    { label: T.responsible, value: travel.responsible ?? '—' },
    { label: T.devices, value: formatCount(input.devices.length) },
    { label: T.startedAt, value: travel.startedAt ? clock.dateTime(travel.startedAt) : T.notYet },
    { label: T.finishedAt, value: travel.finishedAt ? clock.dateTime(travel.finishedAt) : T.notFinished },
    { label: T.positions, value: formatCount(route.positions) },
    { label: T.distance, value: `${formatDecimal(route.distanceKm, 1)} km` },
    { label: T.timeZone, value: clock.timeZone },
  ];
}

/** One line per device, so that an auditor sees at once which device left its range. */
function drawDeviceSummary(doc: PDFKit.PDFDocument, devices: readonly DeviceSection[], statistics: readonly ReportStatistics[]): void {
  const columns: Column[] = [
    { header: T.device, weight: 21 },
    { header: T.mac, weight: 17 },
    { header: T.readings, weight: 9, align: 'right' },
    { header: `${T.minimum} (°C)`, weight: 9, align: 'right' },
    { header: `${T.maximum} (°C)`, weight: 9, align: 'right' },
    { header: 'MKT (°C)', weight: 9, align: 'right' },
    { header: T.timeOutOfRange, weight: 15, align: 'right' },
    { header: T.excursions, weight: 11, align: 'right' },
  ];
  drawTable(
    doc,
    columns,
    devices.map((device, index) => {
      const stats = statistics[index]!;
      return [
        device.device.name,
        device.device.mac,
        formatCount(stats.count),
        formatOptionalDecimal(stats.temperature.min),
        formatOptionalDecimal(stats.temperature.max),
        formatOptionalDecimal(stats.temperature.mkt),
        formatDuration(stats.timeOutOfRangeMs),
        formatCount(stats.excursions.length),
      ];
    }),
    { zebra: true },
  );
}
