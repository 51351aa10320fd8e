import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationProvider } from 'kysely/migration';
import type { Db } from './database';
import * as initialSchema from './migrations/2026-11-22T0900-initial-schema';
import * as ingestAndAlarms from './migrations/2026-11-22T1000-ingest-and-alarms';
import * as travels from './migrations/2026-11-22T1100-travels';
import * as reports from './migrations/2026-11-22T1200-reports';
import * as reportQueueTurns from './migrations/2026-11-25T1030-report-queue-turns';
import * as contactAddressPlanRequests from './migrations/2026-11-26T0100-contact-address-plan-requests';
import * as beaconRegistry from './migrations/2026-11-26T0200-beacon-registry';
import * as firmwareFiles from './migrations/2026-11-26T0300-firmware-files';
import * as locationNames from './migrations/2026-11-26T0400-location-names';
import * as alarmNotifications from './migrations/2026-11-26T0500-alarm-notifications';
import * as pushSubscriptions from './migrations/2026-11-26T0600-push-subscriptions';
import * as remindersAndEscalation from './migrations/2026-11-26T0800-reminders-and-escalation';
import * as monitorLinks from './migrations/2026-11-26T1000-monitor-links';
import * as billing from './migrations/2026-11-26T1100-billing';
import * as plansAdmin from './migrations/2026-11-26T1200-plans-admin';
import * as invoiceDocuments from './migrations/2026-11-26T1300-invoice-documents';
import * as cards from './migrations/2026-11-26T1400-cards';
import * as subscriptionChanges from './migrations/2026-11-26T1500-subscription-changes';
import * as dataCompleteness from './migrations/2026-11-26T1700-data-completeness';
import * as trackingLinks from './migrations/2026-11-26T1800-tracking-links';
import * as devicesFillfactor from './migrations/2026-11-26T2000-devices-fillfactor';
import * as readingRollups from './migrations/2026-11-26T2100-reading-rollups';
import * as auditTrail from './migrations/2026-11-28T0700-audit-trail';
import * as accountChangeReports from './migrations/2026-11-28T0716-account-change-reports';
import * as integrations from './migrations/2026-11-28T1045-integrations';
import * as gxpLocationLinks from './migrations/2026-11-28T1108-gxp-location-links';
import * as retention from './migrations/2026-11-28T1133-retention';
import * as reportTimestamps from './migrations/2026-11-28T1410-report-timestamps';
import * as pendingEmailChanges from './migrations/2026-11-28T1453-pending-email-changes';
import * as sealTimestamps from './migrations/2026-11-28T2340-seal-timestamps';
import * as rateLimits from './migrations/2026-11-28T1139-rate-limits';
import * as calibrations from './migrations/2026-11-28T1140-calibrations';
import * as prorationInvoiceLines from './migrations/2026-11-28T1151-proration-invoice-lines';
import * as reportLinkKeys from './migrations/2026-11-28T1156-report-link-keys';
import * as deviceLinkedAt from './migrations/2026-11-28T1157-device-linked-at';
import * as deviceFirmwareVersion from './migrations/2026-11-28T1158-device-firmware-version';
import * as daySeals from './migrations/2026-11-28T1420-day-seals';
import * as mappingStudies from './migrations/2026-11-28T1430-mapping-studies';

/**
 * Every migration, by name in date order. A static list: no file-system lookups at run time.
 * Name a new one with the day it is written (never a future date): the migrator refuses a migration that sorts
 * before one a database has already run.
 */
const MIGRATIONS: Record<string, Migration> = {
  '2026-11-22T0900-initial-schema': initialSchema,
  '2026-11-22T1000-ingest-and-alarms': ingestAndAlarms,
  '2026-11-22T1100-travels': travels,
  '2026-11-22T1200-reports': reports,
  '2026-11-25T1030-report-queue-turns': reportQueueTurns,
  '2026-11-26T0100-contact-address-plan-requests': contactAddressPlanRequests,
  '2026-11-26T0200-beacon-registry': beaconRegistry,
  '2026-11-26T0300-firmware-files': firmwareFiles,
  '2026-11-26T0400-location-names': locationNames,
  '2026-11-26T0500-alarm-notifications': alarmNotifications,
  '2026-11-26T0600-push-subscriptions': pushSubscriptions,
  '2026-11-26T0800-reminders-and-escalation': remindersAndEscalation,
  '2026-11-26T1000-monitor-links': monitorLinks,
  '2026-11-26T1100-billing': billing,
  '2026-11-26T1200-plans-admin': plansAdmin,
  '2026-11-26T1300-invoice-documents': invoiceDocuments,
  '2026-11-26T1400-cards': cards,
  '2026-11-26T1500-subscription-changes': subscriptionChanges,
  '2026-11-26T1700-data-completeness': dataCompleteness,
  '2026-11-26T1800-tracking-links': trackingLinks,
  '2026-11-26T2000-devices-fillfactor': devicesFillfactor,
  '2026-11-26T2100-reading-rollups': readingRollups,
  '2026-11-28T0700-audit-trail': auditTrail,
  '2026-11-28T0716-account-change-reports': accountChangeReports,
  '2026-11-28T1045-integrations': integrations,
  '2026-11-28T1108-gxp-location-links': gxpLocationLinks,
  '2026-11-28T1133-retention': retention,
  '2026-11-28T1139-rate-limits': rateLimits,
  '2026-11-28T1140-calibrations': calibrations,
  '2026-11-28T1151-proration-invoice-lines': prorationInvoiceLines,
  '2026-11-28T1156-report-link-keys': reportLinkKeys,
  '2026-11-28T1157-device-linked-at': deviceLinkedAt,
  '2026-11-28T1158-device-firmware-version': deviceFirmwareVersion,
  '2026-11-28T1410-report-timestamps': reportTimestamps,
  '2026-11-28T1420-day-seals': daySeals,
  '2026-11-28T1430-mapping-studies': mappingStudies,
  '2026-11-28T1453-pending-email-changes': pendingEmailChanges,
  '2026-11-28T2340-seal-timestamps': sealTimestamps,
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

/** The migrations of this release, in order (the upgrade test and the readiness check compare a database with it). */
export const MIGRATION_NAMES: readonly string[] = Object.keys(MIGRATIONS);

/**
 * Migrations of this release a database has not run (readiness, X14). Reads kysely's own table directly: the Migrator
 * would create its tables and take its lock, which a check must never do.
 */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const exists = await sql<{ found: boolean }>`select to_regclass('public.kysely_migration') is not null as found`.execute(db);
  if (!exists.rows[0]?.found) return [...MIGRATION_NAMES];
  const ran = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const done = new Set(ran.rows.map((r) => r.name));
  return MIGRATION_NAMES.filter((name) => !done.has(name));
}

export async function migrateToLatest(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`);
  }
  // The audit trail's update triggers name the columns of their table (ADR 0060): a migration that added a column to an
  // audited table would leave its changes out of the trail. Re-attached after every migration run, whatever it changed.
  if (results?.some((r) => r.status === 'Success')) {
    const audited = await sql<{ found: boolean }>`select to_regclass('public.audit_tables') is not null as found`.execute(db);
    if (audited.rows[0]?.found) await sql`SELECT audit_refresh(table_name) FROM audit_tables`.execute(db);
  }
}
