import type { AppConfig } from './config/config';
import { jobConnectionOf, type Db } from './db/database';
import { JobQueue } from './jobs/job-queue';
import { defineReportJob } from './modules/reports/job';
import { SpreadsheetReaderPool } from './modules/reports/excel-upload/reader-pool';
import { RenderPool } from './modules/reports/render/render-pool';
import { ReportTimestamps } from './modules/reports/timestamps';
import type { SigningSource } from './modules/reports/render/render-task';
import { ReportService } from './modules/reports/service';
import { ReportStorage } from './modules/reports/storage';
import type { Clock } from './lib/clock';
import { IngestAdmission } from './ingest/ingest-admission';
import { IngestService } from './ingest/ingest-service';
import { PayloadReader } from './ingest/payload-reader';
import { EventLoopLoad } from './lib/event-loop-load';
import { AlarmService } from './modules/alarms/service';
import { GatewayService } from './modules/gateways/service';
import { MonitorLinkService } from './modules/monitor-links/service';
import { PlansAdminService } from './modules/plans-admin/service';
import { EventBus } from './realtime/event-bus';
import { AppMetrics } from './metrics/metrics';
import { AccessLogWriter } from './modules/access-log/writer';
import { AuthService } from './modules/auth/service';
import { SessionService } from './modules/auth/session-service';
import { DeviceService } from './modules/devices/service';
import { BeaconService } from './modules/beacons/service';
import { DeviceLinkService } from './modules/device-links/service';
import { UserService } from './modules/users/service';
import { EnterpriseService } from './modules/enterprises/service';
import { HistoryService } from './modules/readings/history-service';
import { RollupJob } from './modules/readings/rollup-job';
import { TravelService } from './modules/travels/service';
import { MailService } from './modules/mail/mail-service';
import { AccountService } from './modules/accounts/service';
import { AccountProtection } from './modules/accounts/account-protection';
import { EmailChangeService } from './modules/accounts/email-change';
import { CurrentPasswordCheck } from './modules/auth/current-password';
import { ProfileService } from './modules/profile/service';
import { createMailTransport } from './modules/mail/transport';
import { FirmwareService } from './modules/firmware/service';
import { FirmwareStorage } from './modules/firmware/storage';
import { TelegramBot } from './modules/telegram/bot';
import { TelegramMessages } from './modules/telegram/message-job';
import { TelegramLinkService } from './modules/telegram/link-service';
import { createPhoneSenders } from './modules/notifications/channels/phone-senders';
import { NotificationSettingsService } from './modules/notifications/settings-service';
import { AlarmDeliveryService } from './modules/notifications/alarm-delivery';
import { AlarmReminderService } from './modules/notifications/reminders';
import { PushService } from './modules/push/service';
import { LocationService } from './modules/locations/service';
import { GeocoderService } from './modules/geocoder/service';
import { ContactService } from './modules/contact/service';
import { HumanCheck } from './modules/contact/human-check';
import { CepLookup } from './modules/enterprise-account/cep-lookup';
import { EnterpriseAccountService } from './modules/enterprise-account/service';
import { UserCreationService } from './modules/users/user-creation';
import { BillingService } from './modules/billing/service';
import { BillingCycle } from './modules/billing/cycle';
import { InvoicePdfService } from './modules/billing/invoice-pdf';
import { CardService } from './modules/cards/service';
import { SubscriptionService } from './modules/subscriptions/service';
import { AuditTrailExportService } from './modules/audit-trail/export';
import { AuditTrailService } from './modules/audit-trail/service';
import { ComplianceService } from './modules/compliance/service';
import { RetentionService } from './modules/retention/service';
import { SealService } from './modules/seals/service';
import { SignatureService } from './modules/signatures/service';
import { ReportApprovalService } from './modules/reports/approval';
import { ApiTokenService } from './modules/api-tokens/service';
import { ReadingsExportService } from './modules/readings/export-service';
import { WebhookService } from './modules/webhooks/service';
import { RateLimits } from './lib/rate-limits/rate-limits';
import { OutgoingClient } from './lib/outgoing/outgoing-client';
import { loggedTimestamper, tsaTimestamper } from './reports/signing/tsa-client';
import { CalibrationService } from './modules/calibrations/service';
import { CalibrationStorage } from './modules/calibrations/storage';
import { PdfChecker } from './modules/calibrations/pdf-check';
import { CalibrationNotices } from './modules/calibrations/notices';
import { MappingStudyService } from './modules/mapping-studies/service';

/** The app's long-lived collaborators, built once and handed to plugins and routes. */
export interface AppServices {
  config: AppConfig;
  db: Db;
  clock: Clock;
  sessions: SessionService;
  auth: AuthService;
  accessLog: AccessLogWriter;
  devices: DeviceService;
  /** The super admin's beacon registry: by hand, imported, discovered by gateways (X1). */
  beacons: BeaconService;
  /** Devices into enterprises and to users (M6). */
  deviceLinks: DeviceLinkService;
  users: UserService;
  enterprises: EnterpriseService;
  history: HistoryService;
  /** The hourly reading roll-ups behind long charts (ADR 0045): run by plugins/rollup-maintenance, by tests directly. */
  rollups: RollupJob;
  /** In-process events (readings stored, alarms, revoked gateways) for realtime and plugins. */
  events: EventBus;
  /** Prometheus metrics of this app (X14, ADR 67): counted where events happen, served by plugins/metrics. */
  metrics: AppMetrics;
  ingest: IngestService;
  /** The event loop's load, sampled once a second: load shedding's and ingestion's measure of a busy process. */
  load: EventLoopLoad;
  /** Ingestion quotas per gateway key and shedding of the heaviest gateways (ADR 52), for HTTP and MQTT alike. */
  ingestAdmission: IngestAdmission;
  /** Reads gateways' payloads, large ones in threads (ADR 52). */
  payloads: PayloadReader;
  gateways: GatewayService;
  monitorLinks: MonitorLinkService;
  plansAdmin: PlansAdminService;
  alarms: AlarmService;
  travels: TravelService;
  /** Background jobs in the database (pg-boss); started and stopped by the jobs plugin. */
  jobs: JobQueue;
  /** Threads that render and sign report files. */
  renderPool: RenderPool;
  /** Threads that read uploaded spreadsheets (ADR 13). */
  spreadsheetReaders: SpreadsheetReaderPool;
  reports: ReportService;
  /** Outgoing e-mail, sent by a job (SMTP_URL, or .eml files in the outbox). */
  mail: MailService;
  /** Sign-up, e-mail confirmation, password recovery. */
  accounts: AccountService;
  accountProtection: AccountProtection;
  /** Pending changes of e-mail, applied by a link sent to the new address (ADR 82). */
  emailChanges: EmailChangeService;
  /** The signed-in user's own profile and password. */
  profile: ProfileService;
  /** Firmware versions and their files (M1). */
  firmware: FirmwareService;
  /** The Telegram bot (A12): started and stopped by the jobs plugin; inert without TELEGRAM_BOT_TOKEN. */
  telegram: TelegramBot;
  telegramLinks: TelegramLinkService;
  /** "Por onde deseja receber notificações?" (A10). */
  notificationSettings: NotificationSettingsService;
  /** Alarm messages by e-mail and Telegram, and their delivery log (D6). */
  alarmDeliveries: AlarmDeliveryService;
  /** Reminders and escalation of open, unacknowledged alarms, and their settings per enterprise (ADR 24). */
  alarmReminders: AlarmReminderService;
  /** Web push: the VAPID key and users' browser subscriptions (D6, ADR 22). */
  push: PushService;
  /** Locais (A8): locations and device groups. */
  locations: LocationService;
  /** Address search for locations (GEOCODER_URL), through the server. */
  geocoder: GeocoderService;
  /** The landing page's contact form and its proof-of-work check (A14). */
  contact: ContactService;
  /** Postal codes, through a ViaCEP-compatible service (A4). */
  cepLookup: CepLookup;
  /** The enterprise's own address and plan (A4, A11). */
  enterpriseAccount: EnterpriseAccountService;
  /** Users created by an administrator and linked to an enterprise (A13). */
  userCreation: UserCreationService;
  /** Invoices, their PIX code and payment (issue 13, ADR 27). */
  billing: BillingService;
  /** Issues each period's invoice, marks overdue ones, restricts after the grace period (a pg-boss job). */
  billingCycle: BillingCycle;
  /** Invoice PDFs signed like the reports, recorded for the report validator (ADR 30). */
  invoicePdfs: InvoicePdfService;
  /** Payment cards tokenised by the payment provider (issue 13 item 4, ADR 31). */
  cards: CardService;
  /** The enterprise's subscription: changes on /plans, upgrades with a pro-rated invoice, restriction (ADR 32). */
  subscriptions: SubscriptionService;
  /** The audit trail (X11, ADR 0060): read and verified here, written by the database. */
  auditTrail: AuditTrailService;
  auditTrailExports: AuditTrailExportService;
  /** GxP mode per enterprise (X11, ADR 0061). */
  compliance: ComplianceService;
  retention: RetentionService;
  /** Sealed days of readings (X12, ADR 0080). */
  seals: SealService;
  /** Electronic signatures: alarm acknowledgements in GxP mode, report approvals (X11, ADR 0062). */
  signatures: SignatureService;
  /** Report approvals, signed (X11, ADR 0062). */
  reportApprovals: ReportApprovalService;
  /** API tokens of enterprises (X13, ADR 64): checked by the auth plugin, their uses written in batches. */
  apiTokens: ApiTokenService;
  /** GET /api/readings: readings by cursor and as streamed CSV (X13, ADR 65). */
  readingsExport: ReadingsExportService;
  /** Signed webhooks: the outbox relay, the delivery job, its log (X13, ADR 66). */
  webhooks: WebhookService;
  /** Every rate limit, counted in a store all API processes share (ADR 54). */
  rateLimits: RateLimits;
  /** The one client for outgoing HTTP(S): address checks, timeouts, size caps (ADR 55). For webhooks and the TSA too. */
  outgoing: OutgoingClient;
  /** The self-hosted ALTCHA proof of work (contact form, sign-up). */
  humanCheck: HumanCheck;
  /** Calibration certificates per sensor (X12, ADR 0077). */
  calibrations: CalibrationService;
  /** The thread that checks uploaded PDFs by their content. */
  pdfChecker: PdfChecker;
  /** Once-only announcements of certificates becoming due or overdue (ADR 0077). */
  calibrationNotices: CalibrationNotices;
  mappingStudies: MappingStudyService;
}

export function createServices(
  config: AppConfig,
  db: Db,
  clock: Clock,
  log: { info: (obj: unknown, msg: string) => void; error: (obj: unknown, msg: string) => void; warn: (obj: unknown, msg: string) => void },
): AppServices {
  const events = new EventBus(log);
  // prom-client's process metrics only where they are served: tests build many apps in one process.
  const metrics = new AppMetrics({ defaultMetrics: config.metrics !== undefined });
  const load = new EventLoopLoad(log);
  const rateLimits = new RateLimits({ db, redisUrl: config.redisUrl, log });
  // One guard for every outgoing request (ADR 55); PUSH_ALLOW_HTTP_ENDPOINTS and WEBHOOK_ALLOW_PRIVATE are older names of
  // OUTGOING_ALLOW_PRIVATE, kept for existing setups.
  const outgoing = new OutgoingClient({
    allowPrivate: config.outgoingAllowPrivate || config.pushAllowHttpEndpoints || config.webhookAllowPrivate,
    allowedPorts: config.outgoingAllowedPorts,
  });
  const sessions = new SessionService(db, clock, events);
  const apiTokens = new ApiTokenService(db, clock, log);
  const accessLog = new AccessLogWriter(db, log);
  const jobConnection = jobConnectionOf(db);
  if (!jobConnection) throw new Error('The database must be opened with openDatabase (the job queue shares its connection).');
  const jobs = new JobQueue(jobConnection, log);
  const signing: SigningSource = { dir: config.reportSigningDir, p12Path: config.reportSigningP12, p12Password: config.reportSigningP12Password };
  // RFC 3161 timestamps of every PDF signature when REPORT_TSA_URL is set (ADR 79): the render threads call the TSA
  // themselves; invoices and audit trail exports, signed on this thread, through this timestamper.
  const tsa = config.reportTsaUrl ? { url: config.reportTsaUrl, timeoutMs: config.reportTsaTimeoutMs } : undefined;
  const timestamper = tsa ? loggedTimestamper(tsaTimestamper(tsa, outgoing), log) : undefined;
  const renderPool = new RenderPool(config.reportWorkers, tsa);
  const spreadsheetReaders = new SpreadsheetReaderPool(config.reportExcelThreads, config.reportExcelThreadMemoryMb);
  const travels = new TravelService(db, clock, events, { linkDaysAfterEnd: config.travelLinkDaysAfterEnd });
  const reportStorage = new ReportStorage(config.reportsDir);
  const reportTimestamps = new ReportTimestamps(db, clock, config, jobs, reportStorage, log, timestamper);
  reportTimestamps.define();
  const reports = new ReportService(db, clock, config, jobs, renderPool, spreadsheetReaders, reportStorage, signing, log, events, travels, reportTimestamps);
  defineReportJob(jobs, reports, config);
  const mail = new MailService(jobs, createMailTransport(config, log), log);
  const accountProtection = new AccountProtection(db, clock, config, sessions, mail);
  const emailChanges = new EmailChangeService(db, clock, config, mail, accountProtection);
  const accounts = new AccountService(db, clock, config, sessions, mail, accountProtection, emailChanges);
  const billingCycle = new BillingCycle(db, clock, config, jobs, mail, log);
  const compliance = new ComplianceService(db);
  const signatures = new SignatureService(db, clock, mail, log);
  const alarms = new AlarmService(db, clock, events, compliance, signatures);
  const telegram = new TelegramBot(config, log);
  const telegramLinks = new TelegramLinkService(db, clock, config, telegram, new TelegramMessages(jobs, telegram, log));
  const phoneSenders = createPhoneSenders(config, outgoing);
  // The "not a robot" proof of work of the contact form and the sign-up (one secret, one table of spent answers).
  const humanCheck = new HumanCheck(db, clock, {
    secret: config.contactChallengeSecret,
    secretFile: config.contactChallengeSecretFile,
    minutes: config.contactChallengeMinutes,
    cost: config.contactChallengeCost,
    maxCounter: config.contactChallengeMaxCounter,
  });
  const push = new PushService(db, clock, config, outgoing, log);
  const alarmDeliveries = new AlarmDeliveryService(db, clock, config, jobs, mail, telegram, alarms, events, log, phoneSenders, push, metrics);
  const pdfChecker = new PdfChecker();
  const calibrations = new CalibrationService(db, clock, config.reportTimeZone, new CalibrationStorage(config.calibrationsDir), pdfChecker);
  telegram.setHandlers({
    start: (chatId) => telegramLinks.startMessage(chatId),
    acknowledge: (press) => alarmDeliveries.acknowledgeFromTelegram(press),
  });
  const auditTrail = new AuditTrailService(db);
  const seals = new SealService(db, clock, config.reportTimeZone, signing, jobs, log, config.sealCheckMinutes, timestamper);
  return {
    config,
    db,
    clock,
    rateLimits,
    outgoing,
    sessions,
    accessLog,
    auth: new AuthService(db, sessions, accessLog, clock),
    devices: new DeviceService(db, clock),
    beacons: new BeaconService(db, clock, config, spreadsheetReaders),
    deviceLinks: new DeviceLinkService(db, clock, events),
    users: new UserService(db, clock, sessions, events, accountProtection, emailChanges),
    enterprises: new EnterpriseService(db, clock),
    history: new HistoryService(db, clock, config.reportTimeZone),
    rollups: new RollupJob(db, clock, config.rollupDelayMinutes),
    events,
    metrics,
    ingest: new IngestService(db, clock, events, log, metrics),
    load,
    ingestAdmission: new IngestAdmission(
      {
        readingsPerSecond: config.ingestReadingsPerSecond,
        bytesPerSecond: config.ingestBytesPerSecond,
        burstSeconds: config.ingestBurstSeconds,
        maxPayloadBytes: Math.max(config.ingestBodyLimitBytes, config.mqttMaxPacketBytes),
        shedEventLoopDelayMs: config.ingestShedEventLoopDelayMs,
        overloadRetryAfterSeconds: config.overloadRetryAfterSeconds,
      },
      () => load.get(),
      clock,
    ),
    payloads: new PayloadReader(config.ingestParseThreads),
    gateways: new GatewayService(db, clock, events),
    monitorLinks: new MonitorLinkService(db, clock, events, accessLog, config),
    plansAdmin: new PlansAdminService(db, clock),
    alarms,
    travels,
    jobs,
    renderPool,
    spreadsheetReaders,
    reports,
    mail,
    accounts,
    accountProtection,
    emailChanges,
    profile: new ProfileService(db, clock, sessions, accountProtection, emailChanges, new CurrentPasswordCheck(db, clock, accessLog, rateLimits.limit({ name: 'current-password-failures', points: config.loginMaxPerMinute, windowSeconds: 60 }))),
    firmware: new FirmwareService(db, clock, new FirmwareStorage(config.firmwareDir), config.firmwareMaxBytes),
    telegram,
    telegramLinks,
    notificationSettings: new NotificationSettingsService(db, telegram, phoneSenders),
    alarmDeliveries,
    alarmReminders: new AlarmReminderService(db, clock, jobs, () => alarmDeliveries.configuredChannels(), log),
    push,
    locations: new LocationService(db, clock),
    geocoder: new GeocoderService({
      url: config.geocoderUrl,
      timeoutMs: config.geocoderTimeoutMs,
      upstreamPerMinute: config.geocoderMaxPerMinute,
      perUserPerMinute: config.geocoderUserMaxPerMinute,
      rateLimits,
      outgoing,
      publicUrl: config.publicUrl,
    }),
    contact: new ContactService(
      db,
      clock,
      config,
      mail,
      humanCheck,
    ),
    humanCheck,
    cepLookup: new CepLookup(config.cepLookupUrl, config.cepLookupTimeoutMs, clock, outgoing),
    enterpriseAccount: new EnterpriseAccountService(db, clock),
    userCreation: new UserCreationService(db, clock, events, accounts),
    billing: new BillingService(db, clock, config, mail, log),
    invoicePdfs: new InvoicePdfService(db, clock, config, signing, timestamper),
    cards: new CardService(db, clock, config.cardProvider, log),
    billingCycle,
    subscriptions: new SubscriptionService(db, clock, config, mail, log, billingCycle),
    auditTrail,
    auditTrailExports: new AuditTrailExportService(db, clock, config, signing, auditTrail, timestamper),
    compliance,
    retention: new RetentionService(db, clock, reportStorage, jobs, log, seals),
    seals,
    signatures,
    reportApprovals: new ReportApprovalService(db, clock, signatures, reports),
    apiTokens,
    readingsExport: new ReadingsExportService(db, clock),
    webhooks: new WebhookService(db, clock, config, jobs, mail, events, log, outgoing, metrics),
    calibrations,
    pdfChecker,
    calibrationNotices: new CalibrationNotices(db, clock, config, jobs, mail, telegram, push, log),
    mappingStudies: new MappingStudyService(db, clock, reports),
  };
}
