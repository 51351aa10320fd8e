import type { Coverage } from '@sentinela/contract';

/**
 * What the report renderers take. Renderers are pure: data in, a file out, no database inside (ARCHITECTURE).
 * The reports service loads this data within the asking user's tenant scope and hands it over.
 */

export interface ReportReading {
  ts: Date;
  temperature: number | null;
  humidity: number | null;
  battery: number | null;
  lat: number | null;
  lng: number | null;
}

export interface Range {
  min: number | null;
  max: number | null;
}

export interface ReportLimits {
  temperature: Range;
  humidity: Range;
}

/** An alarm (excursion, no data, …) raised in the period, with its acknowledgement when there is one. */
export interface ReportAlarm {
  occurredAt: Date;
  type: string;
  message: string;
  temperature: Range;
  humidity: Range;
  active: boolean;
  acknowledgedAt: Date | null;
  acknowledgedBy: string | null;
  acknowledgementMessage: string | null;
  /** The acknowledgement's electronic signature (GxP mode, ADR 0062). */
  signature?: { printedName: string; username: string; meaning: string; signedAt: Date } | null;
}

/**
 * The device's calibration certificate as of the report's period (X12, ADR 0077): the latest one calibrated on or
 * before the period's last day, and whether it had expired by then; 'none' without one.
 */
export type ReportCalibration =
  | { state: 'none' }
  | { state: 'valid' | 'overdue'; certificateNumber: string; laboratory: string; dueAt: string };

/** A device's readings over a period: the device history report, and each device section of a travel report. */
export interface DeviceReportInput {
  /** The report's id, printed on every page so an auditor can name it. */
  reportId: string;
  enterprise: { name: string } | null;
  device: { name: string; mac: string; serial: string | null };
  /** Absent: the data had no calibration facts (read as "no certificate"). */
  calibration?: ReportCalibration;
  /** Set when the device report is about one device within a travel. */
  travel: TravelSummary | null;
  period: { from: Date; to: Date };
  /** The user's extra filters (temperature/humidity ranges), printed so a filtered report is never taken for a full one. */
  valueFilters: { temperature: Range; humidity: Range };
  limits: ReportLimits;
  /** Oldest first. */
  readings: ReportReading[];
  alarms: ReportAlarm[];
  /** How complete the readings are over the period (ADR 0035): coverage, gaps, lost readings. */
  coverage: Coverage;
  issuer: { name: string; username: string };
  generatedAt: Date;
  /** IANA zone the times are printed in (America/Sao_Paulo by default). */
  timeZone: string;
}

export interface TravelSummary {
  code: string;
  status: string;
  origin: string;
  destination: string;
  responsible: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
}

/** The whole-travel report: the travel, then one section per device. */
export interface TravelReportInput {
  reportId: string;
  enterprise: { name: string } | null;
  travel: TravelSummary;
  /** Number of recorded positions and the travelled distance in km (from the positions). */
  route: { positions: number; distanceKm: number };
  devices: Array<Omit<DeviceReportInput, 'reportId' | 'enterprise' | 'travel' | 'issuer' | 'generatedAt' | 'timeZone'>>;
  issuer: { name: string; username: string };
  generatedAt: Date;
  timeZone: string;
}

/** One sensor of a thermal mapping study: where it was (its name), its calibration as of the study, its readings. */
export interface MappingSensor {
  name: string;
  mac: string;
  serial: string | null;
  calibration: ReportCalibration;
  /** Oldest first. */
  readings: ReportReading[];
}

/** A thermal mapping study's report (X12, ADR 0083): several sensors of one space over one period and range. */
export interface MappingReportInput {
  reportId: string;
  enterprise: { name: string } | null;
  study: { name: string; location: string | null; from: Date; to: Date; limits: Range };
  sensors: MappingSensor[];
  issuer: { name: string; username: string };
  generatedAt: Date;
  timeZone: string;
}
