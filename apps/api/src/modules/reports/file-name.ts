import type { ReportFileType, ReportKind } from '@sentinela/contract';
import { wallClockAt, type WallClock } from '../../lib/time-zone';

/** What names a report's file: its subject (device or travel), its period and its type. */
export interface ReportNaming {
  kind: ReportKind | string;
  type: ReportFileType | string;
  deviceName: string | null;
  travelCode: string | null;
  /** The period's ends as stored in the report's filters (ISO instants), or null. */
  from: string | null;
  to: string | null;
}

const MAX_SUBJECT = 60;

/**
 * A name that survives every file system, zip tool and HTTP header as it is: accents dropped ("Baú" → "Bau"),
 * anything but letters, digits, dot, underscore and hyphen made a hyphen, runs of them folded, at most `max` long.
 */
export function safeFilePart(text: string, max = MAX_SUBJECT): string {
  const ascii = text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '');
  return ascii.slice(0, max).replace(/[-.]+$/, '');
}

const two = (n: number) => String(n).padStart(2, '0');
const day = (w: WallClock) => `${w.year}-${two(w.month)}-${two(w.day)}`;
const time = (w: WallClock) => `${two(w.hour)}h${two(w.minute)}`;

/** The period in the users' zone: two days, or one day and two times when it lies within a day. */
function periodPart(from: string | null, to: string | null, timeZone: string): string | null {
  const start = from && !Number.isNaN(Date.parse(from)) ? wallClockAt(new Date(from), timeZone) : null;
  const end = to && !Number.isNaN(Date.parse(to)) ? wallClockAt(new Date(to), timeZone) : null;
  if (!start || !end) return start ? day(start) : end ? day(end) : null;
  if (day(start) === day(end)) return `${day(start)}_${time(start)}-${time(end)}`;
  return `${day(start)}_${day(end)}`;
}

/**
 * The name a report's file is downloaded and zipped under (issue 26): its subject, period and type, e.g.
 * `Geladeira-Vacinas_2026-11-01_2026-11-02` + `.pdf`; a travel's report `Viagem-AUR7K2M9QX_…`, one device of a
 * travel `Bau-Caminhao-01_Viagem-AUR7K2M9QX_…`. Without its extension (the documented client appends the type to the
 * last segment of `download_url`, which ends with this stem).
 */
export function reportFileStem(naming: ReportNaming, timeZone: string): string {
  const device = naming.deviceName ? safeFilePart(naming.deviceName) : '';
  const travel = naming.travelCode ? `Viagem-${safeFilePart(naming.travelCode, 20)}` : '';
  const subject =
    naming.kind === 'travel'
      ? travel
      : naming.kind === 'mapping-study'
        ? `Mapeamento${device ? `-${device}` : ''}`
        : [device, naming.kind === 'travel-device-history' ? travel : ''].filter(Boolean).join('_');
  const parts = [subject || 'Relatorio', periodPart(naming.from, naming.to, timeZone)].filter(Boolean);
  return parts.join('_');
}

export function reportFileName(naming: ReportNaming, timeZone: string): string {
  return `${reportFileStem(naming, timeZone)}.${naming.type}`;
}
