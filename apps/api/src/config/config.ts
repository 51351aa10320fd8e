import path from 'node:path';
import { z } from 'zod';
import { listenUrl } from './public-url';

/** The environment, parsed once. Everything configurable lives here and is documented in the README. */
const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().optional(),
  DATA_DIR: z.string().default('./data'),
  // Unset: on, except with NODE_ENV=production, where demo logins and the demo gateway key must be asked for.
  DEMO: z.enum(['0', '1']).optional(),
  // The live demo (ADR 38): the demo beacons keep reporting through ingestion. Unset: on whenever DEMO is.
  DEMO_LIVE: z.enum(['0', '1']).optional(),
  DEMO_LIVE_INTERVAL_SECONDS: z.coerce.number().int().min(1).max(3600).default(15),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['0', '1']).default('0'),
  WEB_DIST: z.string().optional(),
  // Settings the built web app reads at run time from GET /config.json (map tiles and routing server), as JSON.
  WEB_RUNTIME_CONFIG: z
    .string()
    .optional()
    .refine((text) => !text || isJsonObject(text), 'must be a JSON object, e.g. {"tileUrl":"…","routingUrl":"…"}'),
  BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(1024 * 1024),
  LOGIN_MAX_PER_MINUTE: z.coerce.number().int().positive().default(10),
  // Abuse limits (issue 9): failed logins per address across usernames, requests per signed-in user, load shedding
  // when the event loop lags, and the live channel's budget per socket and per address.
  LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // Failed logins on one username from every address (issue 21 item 9), and the pace of slowed logins.
  LOGIN_FAILURES_PER_USERNAME_PER_HOUR: z.coerce.number().int().positive().default(100),
  LOGIN_SLOWDOWN_SECONDS: z.coerce.number().int().min(1).max(60).default(2),
  USER_MAX_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(600),
  OVERLOAD_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(250),
  OVERLOAD_RETRY_AFTER_SECONDS: z.coerce.number().int().positive().default(5),
  SOCKET_SUBSCRIBES_PER_MINUTE: z.coerce.number().int().positive().default(60),
  SOCKETS_PER_ADDRESS: z.coerce.number().int().positive().default(100),
  SOCKET_CONNECTS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().positive().default(120),
  SOCKET_MAX_MESSAGE_BYTES: z.coerce.number().int().positive().default(16 * 1024),
  // Connection floods (issue 21, ADR 51): connections open at once per client address (HTTP, MQTT, MQTT over TLS) and
  // in all (0: the file-descriptor limit less a reserve); how long an HTTP connection may take to send its headers and
  // its whole request, and stay idle between requests; how long an authenticated MQTT connection may stay silent.
  CONNECTIONS_PER_ADDRESS: z.coerce.number().int().min(0).default(256),
  CONNECTIONS_MAX: z.coerce.number().int().min(0).default(0),
  HTTP_HEADERS_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  HTTP_REQUEST_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(120),
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(10),
  MQTT_IDLE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  DB_POOL_SIZE: z.coerce.number().int().positive().default(10),
  // Ingestion (D5): an embedded MQTT broker by default; with MQTT_URL, a subscriber to that broker instead.
  MQTT_ENABLED: z.enum(['0', '1']).default('1'),
  MQTT_PORT: z.coerce.number().int().min(0).max(65535).default(1883),
  MQTT_HOST: z.string().optional(),
  MQTT_URL: z.string().optional(),
  MQTT_GATEWAY_KEY: z.string().optional(),
  MQTT_CLIENT_ID: z.string().default('sentinela-ingest'),
  // Several servers behind one external broker (docs/scaling.md): members of one shared-subscription group split the
  // messages, each stored once; several connections per server keep several messages in flight (mqtt.js handles one
  // at a time per connection).
  MQTT_SHARE_GROUP: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, "_" or "-" (at most 64)').optional().or(z.literal('')),
  MQTT_SUBSCRIBER_CONNECTIONS: z.coerce.number().int().min(1).max(64).default(1),
  // The embedded broker refuses a packet by its header (ADR 12): above this size once authenticated, above the
  // smaller one before; a connection that sends no CONNECT within the timeout is closed.
  MQTT_MAX_PACKET_BYTES: z.coerce.number().int().min(1024).max(268_435_460).default(1024 * 1024),
  MQTT_CONNECT_MAX_BYTES: z.coerce.number().int().min(256).max(1024 * 1024).default(16_384),
  MQTT_CONNECT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(300).default(10),
  // MQTT over TLS (mqtts) besides plain MQTT, when both a certificate and its key (PEM files) are given.
  MQTT_TLS_CERT: z.string().optional(),
  MQTT_TLS_KEY: z.string().optional(),
  MQTT_TLS_PORT: z.coerce.number().int().min(0).max(65535).default(8883),
  MQTT_TLS_HOST: z.string().optional(),
  INGEST_BODY_LIMIT_BYTES: z.coerce.number().int().positive().default(16 * 1024 * 1024),
  // One gateway cannot slow the platform (issue 21, ADR 52): readings and payload bytes per second per gateway key
  // (0: no quota), the seconds of either a quiet gateway may send at once, the event-loop delay above which the
  // gateways that used most of the recent capacity are refused first, and the threads that read large payloads.
  INGEST_READINGS_PER_SECOND: z.coerce.number().int().min(0).default(5000),
  INGEST_BYTES_PER_SECOND: z.coerce.number().int().min(0).default(4 * 1024 * 1024),
  INGEST_BURST_SECONDS: z.coerce.number().min(0.1).max(3600).default(2),
  INGEST_SHED_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).default(100),
  INGEST_PARSE_THREADS: z.coerce.number().int().min(0).max(16).default(1),
  NO_DATA_CHECK_SECONDS: z.coerce.number().int().min(0).default(60),
  // Reading roll-ups (ADR 0045): how often the job runs, and how far behind now the hours it rolls up lie.
  ROLLUP_INTERVAL_SECONDS: z.coerce.number().int().min(0).default(60),
  ROLLUP_DELAY_MINUTES: z.coerce.number().int().min(0).max(7 * 24 * 60).default(180),
  // Travels: lookups by tracking code per address and minute; Redis for live updates across several servers.
  LOCALIZATOR_MAX_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // Tracking links (ADR 36): days after a travel ends that its code keeps working, unless its managers chose a date.
  TRAVEL_LINK_DAYS_AFTER_END: z.coerce.number().int().min(0).max(3650).default(7),
  // Monitor links (ADR 26): token lookups per address and minute (HTTP and Socket.IO, each).
  MONITOR_LOOKUPS_PER_MINUTE: z.coerce.number().int().positive().default(30),
  REDIS_URL: z.string().optional(),
  // Reports (R1–R6): where files go, how many are generated at once, the signing certificate, the time zone of
  // the printed times, the largest report, and validator uploads per address and minute.
  REPORTS_DIR: z.string().optional(),
  REPORT_WORKERS: z.coerce.number().int().min(0).max(32).default(2),
  REPORT_SIGNING_P12: z.string().optional(),
  REPORT_SIGNING_P12_PASSWORD: z.string().optional(),
  REPORT_TIME_ZONE: z.string().default('America/Sao_Paulo').refine(isTimeZone, 'must be an IANA time zone, e.g. America/Sao_Paulo'),
  REPORT_MAX_READINGS: z.coerce.number().int().positive().default(500_000),
  REPORT_LINK_MINUTES: z.coerce.number().int().min(1).max(7 * 24 * 60).default(60),
  // RFC 3161 signature timestamps (ADR 79): empty = off.
  REPORT_TSA_URL: z.url({ protocol: /^https?$/ }).optional().or(z.literal('')),
  REPORT_TSA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  REPORT_TSA_RETRY_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  REPORT_VALIDATE_MAX_PER_MINUTE: z.coerce.number().int().positive().default(30),
  // Uploads and the report queue under abuse (ADR 13): what one spreadsheet may cost, the threads that read them,
  // uploads per user and minute, and reports one user or enterprise may have waiting.
  REPORT_EXCEL_MAX_BYTES: z.coerce.number().int().positive().default(5 * 1024 * 1024),
  REPORT_EXCEL_MAX_INFLATED_BYTES: z.coerce.number().int().positive().default(50 * 1024 * 1024),
  REPORT_EXCEL_MAX_ENTRIES: z.coerce.number().int().positive().max(65_534).default(1000),
  REPORT_EXCEL_THREADS: z.coerce.number().int().min(1).max(16).default(1),
  REPORT_EXCEL_THREAD_MEMORY_MB: z.coerce.number().int().min(32).max(4096).default(128),
  REPORT_UPLOAD_MAX_PER_MINUTE: z.coerce.number().int().positive().default(10),
  REPORT_QUEUE_MAX_PER_USER: z.coerce.number().int().positive().default(1000),
  REPORT_QUEUE_MAX_PER_ENTERPRISE: z.coerce.number().int().positive().default(3000),
  // Firmware files (M1): where they are kept and the largest one accepted.
  FIRMWARE_DIR: z.string().optional(),
  FIRMWARE_MAX_BYTES: z.coerce.number().int().positive().default(64 * 1024 * 1024),
  // Calibration certificates (X12, ADR 0077): their folder, and how often the due/overdue announcements are looked for.
  CALIBRATIONS_DIR: z.string().optional(),
  CALIBRATION_CHECK_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(60),
  // Accounts and e-mail (A1–A14): links in e-mails point at PUBLIC_URL; without SMTP_URL messages go to files.
  // Unset: the address the server listens on (ADR 69); required in production without the demo.
  PUBLIC_URL: z.url().optional().or(z.literal('')),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Sentinela <nao-responda@sentinela.local>'),
  MAIL_OUTBOX_DIR: z.string().optional(),
  EMAIL_CONFIRMATION_HOURS: z.coerce.number().int().positive().default(48),
  PASSWORD_RESET_MINUTES: z.coerce.number().int().positive().default(15),
  PASSWORD_RESET_MAX_ATTEMPTS: z.coerce.number().int().positive().default(5),
  PASSWORD_RESET_MAX_PER_EMAIL_HOUR: z.coerce.number().int().positive().default(5),
  ACCOUNT_REQUESTS_MAX_PER_HOUR: z.coerce.number().int().positive().default(20),
  EMAIL_AVAILABLE_MAX_PER_MINUTE: z.coerce.number().int().positive().default(20),
  // No lists of people (issue 21 item 5; ADR 54): e-mail checks per address and hour; answers about one e-mail or
  // username per hour, whoever asks; 409 "taken" answers per signed-in user and hour on the user-editing routes.
  EMAIL_AVAILABLE_MAX_PER_HOUR: z.coerce.number().int().positive().default(60),
  ACCOUNT_CHECKS_PER_TARGET_PER_HOUR: z.coerce.number().int().positive().default(10),
  TAKEN_ANSWERS_PER_HOUR: z.coerce.number().int().positive().default(30),
  // Alarm notifications through Telegram (A12, ADR 21): the bot's token; the Bot API server (a self-hosted one, or a
  // local one in tests); a webhook instead of long polling when its public address is given.
  TELEGRAM_BOT_TOKEN: z.string().optional(),
  TELEGRAM_API_ROOT: z.url().default('https://api.telegram.org'),
  TELEGRAM_WEBHOOK_URL: z.url().optional(),
  TELEGRAM_WEBHOOK_SECRET: z.string().regex(/^[A-Za-z0-9_-]{1,256}$/, 'letters, digits, _ and - only (1 to 256)').optional(),
  TELEGRAM_LINK_MINUTES: z.coerce.number().int().positive().max(24 * 60).default(15),
  // Alarm messages by SMS and WhatsApp (D6, ADR 23): a Twilio-compatible Messages API, and the WhatsApp Cloud API
  // with template messages. Each channel is on only when its credentials are all given.
  SMS_API_URL: z.url().default('https://api.twilio.com'),
  SMS_ACCOUNT_SID: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, 'letters, digits, _ and - only').optional().or(z.literal('')),
  SMS_AUTH_TOKEN: z.string().optional(),
  SMS_FROM: z.string().regex(/^(\+[1-9]\d{6,14}|MG[0-9a-fA-F]{32}|[A-Za-z0-9 ]{1,11})$/, 'a number in E.164 (+5511…), a Messaging Service SID (MG…) or an alphanumeric sender id').optional().or(z.literal('')),
  SMS_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WHATSAPP_API_URL: z.url().default('https://graph.facebook.com'),
  WHATSAPP_API_VERSION: z.string().regex(/^v\d{1,3}\.\d{1,3}$/, 'a Graph API version such as v22.0').default('v22.0'),
  WHATSAPP_PHONE_NUMBER_ID: z.string().regex(/^\d{1,30}$/, 'digits only (the phone number ID of WhatsApp Manager)').optional().or(z.literal('')),
  WHATSAPP_ACCESS_TOKEN: z.string().optional(),
  WHATSAPP_TEMPLATE_OPENED: z.string().regex(/^[a-z0-9_]{1,512}$/, 'lowercase letters, digits and _ (a template name)').default('sentinela_alarme_aberto'),
  WHATSAPP_TEMPLATE_ENDED: z.string().regex(/^[a-z0-9_]{1,512}$/, 'lowercase letters, digits and _ (a template name)').default('sentinela_alarme_encerrado'),
  WHATSAPP_TEMPLATE_LANGUAGE: z.string().regex(/^[a-z]{2,3}(_[A-Z]{2})?$/, 'a template language code such as pt_BR').default('pt_BR'),
  WHATSAPP_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  // Flapping guard (ADR 24): an alarm re-opening within this many minutes of an announced one is held; 0 turns it off.
  ALARM_FLAP_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(15),
  // Web push (D6, ADR 22): the VAPID key pair (both or neither; made once under DATA_DIR when not given), the contact
  // the push services see, and (tests, local setups only) push endpoints over plain HTTP or on private addresses.
  VAPID_PUBLIC_KEY: z.string().regex(/^[A-Za-z0-9_-]{87}$/, 'the base64url public key (87 characters), e.g. from npx web-push generate-vapid-keys').optional(),
  VAPID_PRIVATE_KEY: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'the base64url private key (43 characters), e.g. from npx web-push generate-vapid-keys').optional(),
  VAPID_SUBJECT: z.string().regex(/^(mailto:[^\s@]+@[^\s@]+|https:\/\/\S+)$/, 'a mailto: address or an https: URL').optional(),
  PUSH_ALLOW_HTTP_ENDPOINTS: z.enum(['0', '1']).default('0'),
  // Integrations (X13, ADRs 64-66): requests per API token and minute; webhook targets over plain HTTP or on
  // private addresses (tests, local setups only); how long a webhook receiver may take to answer.
  API_TOKEN_MAX_REQUESTS_PER_MINUTE: z.coerce.number().int().positive().default(600),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  WEBHOOK_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(60).default(15),
  // Outgoing requests to addresses users or remote servers chose (push endpoints, webhooks, redirects; ADR 55): the
  // ports they may use, and (tests, development) private/loopback addresses and plain http allowed.
  OUTGOING_ALLOWED_PORTS: z
    .string()
    .regex(/^\s*\d{1,5}(\s*,\s*\d{1,5})*\s*$/, 'a comma-separated list of ports, e.g. 443,8443')
    .refine((v) => v.split(',').every((p) => Number(p) >= 1 && Number(p) <= 65535), 'ports between 1 and 65535')
    .default('443'),
  OUTGOING_ALLOW_PRIVATE: z.enum(['0', '1']).default('0'),
  // Locais (A8): address search through a Nominatim-compatible server, asked by the API (never by the browser).
  GEOCODER_URL: z.url().optional().or(z.literal('')),
  GEOCODER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
  GEOCODER_MAX_PER_MINUTE: z.coerce.number().int().positive().default(60),
  GEOCODER_USER_MAX_PER_MINUTE: z.coerce.number().int().positive().default(20),
  // Contact form (A14): where messages go, how many an address may send, and its proof-of-work check (ADR 0017).
  CONTACT_EMAIL: z.email().default('contato@sentinela.local'),
  CONTACT_MAX_PER_HOUR: z.coerce.number().int().positive().default(5),
  CONTACT_CHALLENGE_SECRET: z.string().min(16).optional(),
  CONTACT_CHALLENGE_MINUTES: z.coerce.number().int().positive().max(24 * 60).default(10),
  CONTACT_CHALLENGE_COST: z.coerce.number().int().positive().max(1_000_000).default(1000),
  CONTACT_CHALLENGE_MAX_COUNTER: z.coerce.number().int().min(100).max(10_000_000).default(5000),
  // Postal-code lookup (A4): a ViaCEP-compatible service ({root}/{cep}/json/), asked by the server.
  CEP_LOOKUP_URL: z.url().default('https://viacep.com.br/ws'),
  CEP_LOOKUP_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(5000),
  // Invoices and PIX (issue 13, ADR 27): the platform's PIX key and the receiver's name and city in the BR Code; the
  // Bearer token the PSP's webhook sends; when invoices are issued, fall due, and how long overdue before restriction.
  PIX_KEY: z.string().refine(isPixKey, 'a PIX key: CPF or CNPJ (digits only), e-mail (lowercase), phone (+55…) or random key (UUID)').optional().or(z.literal('')),
  PIX_RECEIVER_NAME: z.string().refine((v) => isBrCodeText(v, 25), '1 to 25 letters, digits and spaces (accents are dropped)').default('Sentinela'),
  PIX_RECEIVER_CITY: z.string().refine((v) => isBrCodeText(v, 15), '1 to 15 letters, digits and spaces (accents are dropped)').default('Sao Paulo'),
  PIX_WEBHOOK_TOKEN: z.string().min(16, 'at least 16 characters').optional().or(z.literal('')),
  BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(10),
  BILLING_DUE_DAYS: z.coerce.number().int().min(0).max(60).default(5),
  BILLING_ISSUE_DAYS_BEFORE: z.coerce.number().int().min(0).max(60).default(7),
  BILLING_CYCLE_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(10),
  // Retention (ADR 81): how often the day's run is queued (it runs once a day whatever the servers); 0 turns it off.
  RETENTION_CHECK_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(60),
  // Sealed days (ADR 80): how often the seal job is queued (late readings' addenda, days newly behind the line); 0: off.
  SEAL_CHECK_MINUTES: z.coerce.number().int().min(0).max(24 * 60).default(60),
  // The platform's receiving bank account shown on Financeiro and on invoices (ADR 30): all four or none.
  PLATFORM_BANK_NAME: z.string().trim().max(60).optional(),
  PLATFORM_BANK_AGENCY: z.string().trim().regex(/^\d{1,6}(-[\dXx])?$/, 'digits, optionally a check digit (1234 or 1234-5)').optional().or(z.literal('')),
  PLATFORM_BANK_ACCOUNT: z.string().trim().regex(/^\d{1,13}(-[\dXx])?$/, 'digits, optionally a check digit (12345-6)').optional().or(z.literal('')),
  PLATFORM_BANK_ACCOUNT_TYPE: z.enum(['Corrente', 'Poupança', 'Pagamento']).default('Corrente'),
  PLATFORM_BANK_HOLDER: z.string().trim().max(80).optional(),
  // Cards (issue 13 item 4, ADR 31): the payment provider that tokenises cards in the browser (empty: none, invoices
  // are paid by PIX), Pagar.me's keys (public: given to browsers; secret: HTTP Basic of server calls) and its API root.
  CARD_PROVIDER: z.enum(['', 'pagarme']).default(''),
  PAGARME_PUBLIC_KEY: z.string().regex(/^pk_[A-Za-z0-9_]+$/, 'a Pagar.me public key (pk_…)').optional().or(z.literal('')),
  PAGARME_SECRET_KEY: z.string().regex(/^sk_[A-Za-z0-9_]+$/, 'a Pagar.me secret key (sk_…)').optional().or(z.literal('')),
  PAGARME_API_URL: z.url().default('https://api.pagar.me/core/v5'),
  PAGARME_TIMEOUT_MS: z.coerce.number().int().positive().max(60_000).default(10_000),
  // Operations (X14, ADR 67): Prometheus metrics behind a Bearer token on the app's port, or on a port of their own.
  METRICS_TOKEN: z.string().min(16, 'at least 16 characters').optional().or(z.literal('')),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().optional(),
  // A clean shutdown (X14): how long SIGTERM may take before the process exits anyway (code 1).
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(25),
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  demo: boolean;
  /** The live demo (ADR 38): demo beacons reporting through ingestion, on a demo database only. */
  demoLive: boolean;
  /** Seconds between two readings of each demo beacon. */
  demoLiveIntervalSeconds: number;
  logLevel: string;
  trustProxy: boolean;
  /** Folder of the built web app, served at the site root; absent in API-only tests. */
  webDist: string | undefined;
  /** Served as /config.json to the web app (tile and routing servers); absent: the build's own defaults. */
  webRuntimeConfig?: Record<string, unknown>;
  bodyLimitBytes: number;
  loginMaxPerMinute: number;
  /** Failed logins per address and minute, whatever the usernames (password spraying); then every login from it waits. */
  loginFailuresPerAddressPerMinute: number;
  /** Failed logins on one username from every address per hour; then logins on it are slowed (never refused outright). */
  loginFailuresPerUsernamePerHour: number;
  /** Seconds between two logins of a slowed address or username. */
  loginSlowdownSeconds: number;
  /** Requests per signed-in user and minute on routes that need a session. */
  userMaxRequestsPerMinute: number;
  /** Event-loop delay above which requests are shed with a 503 (health and ingestion excepted); 0 turns shedding off. */
  overloadEventLoopDelayMs: number;
  /** Retry-After of a shed request. */
  overloadRetryAfterSeconds: number;
  /** Live-channel subscribe/unsubscribe messages per socket and minute; far beyond it the socket is disconnected. */
  socketSubscribesPerMinute: number;
  /** Live-channel connections open at once per client address. */
  socketsPerAddress: number;
  /** New live-channel connections per client address and minute (a flooder cut off cannot come straight back). */
  socketConnectsPerAddressPerMinute: number;
  /** Largest live-channel message a client may send. */
  socketMaxMessageBytes: number;
  /**
   * Connections open at once per client address, across the HTTP (unless trustProxy: there every connection comes
   * from the proxy), MQTT and MQTT-over-TLS listeners; 0: no cap.
   */
  connectionsPerAddress: number;
  /** Connections open at once across those listeners; 0: the process's file-descriptor limit less a reserve. */
  connectionsMax: number;
  /** An HTTP connection must send a request's headers within this (a silent connection is closed), and all of it within the next. */
  httpHeadersTimeoutSeconds: number;
  httpRequestTimeoutSeconds: number;
  /** An idle keep-alive HTTP connection is closed after this. */
  httpKeepAliveTimeoutSeconds: number;
  dbPoolSize: number;
  /** MQTT ingestion on or off (tests build the app without it unless they ask). */
  mqttEnabled: boolean;
  /** Port and address of the embedded broker (0: any free port). */
  mqttPort: number;
  mqttHost: string;
  /** An external broker to subscribe to instead of running the embedded one. */
  mqttUrl: string | undefined;
  /** The gateway key that readings arriving through the external broker are attributed to. */
  mqttGatewayKey: string | undefined;
  mqttClientId: string;
  /** With mqttUrl: the shared-subscription group this server subscribes in ($share/{group}/…), if any. */
  mqttShareGroup: string | undefined;
  /** With mqttUrl and a share group: connections (sessions) this server subscribes with. */
  mqttSubscriberConnections: number;
  mqttMaxPacketBytes: number;
  mqttConnectMaxBytes: number;
  /** From its TCP connection, a gateway must complete the TLS handshake (mqtts) and authenticate within this. */
  mqttConnectTimeoutSeconds: number;
  /** An authenticated MQTT connection that sends nothing (not even a PINGREQ) this long is closed. */
  mqttIdleTimeoutSeconds: number;
  /** MQTT over TLS on its own port, when a certificate and key are configured (PEM file paths). */
  mqttTls: { certPath: string; keyPath: string; port: number; host: string } | undefined;
  ingestBodyLimitBytes: number;
  /** Readings per second per gateway key, shared by HTTP and MQTT, per process; 0: no quota. */
  ingestReadingsPerSecond: number;
  /** Payload bytes per second per gateway key, likewise; 0: no quota. */
  ingestBytesPerSecond: number;
  /** Seconds of either rate a gateway that was quiet may send at once (at least one largest batch or payload). */
  ingestBurstSeconds: number;
  /** Event-loop delay above which the gateways that used most of the recent capacity are refused first; 0: never. */
  ingestShedEventLoopDelayMs: number;
  /** Threads reading payloads above 64 KiB (0: every payload on the event loop). */
  ingestParseThreads: number;
  /** How often the "no data" alarm check runs; 0 turns it off. */
  noDataCheckSeconds: number;
  /** How often the roll-up job runs (ADR 0045); 0 turns it off (charts stay exact, reading more readings). */
  rollupIntervalSeconds: number;
  /** Hours are rolled up once they end this long before now; readings arriving later mark their hour. */
  rollupDelayMinutes: number;
  /** Tracking-code lookups (HTTP and Socket.IO) allowed per address and minute: codes must not be guessed. */
  localizatorMaxPerMinute: number;
  /** Days after a travel ends that its tracking code keeps working, unless its managers chose another expiry. */
  travelLinkDaysAfterEnd: number;
  /** Monitor-link token lookups (HTTP and Socket.IO, each) allowed per address and minute: tokens must not be guessed. */
  monitorLookupsPerMinute: number;
  /** With several API processes, Socket.IO rooms are shared through this Redis; in-process without it. */
  redisUrl: string | undefined;
  /** Generated report files (default `<DATA_DIR>/reports`). */
  reportsDir: string;
  /** Reports generated at once by this process (job concurrency and render threads); 0: this process only queues. */
  reportWorkers: number;
  /** The platform's signing certificate: a P12 file and its password; unset, one is created once under `<DATA_DIR>/signing`. */
  reportSigningDir: string;
  reportSigningP12: string | undefined;
  reportSigningP12Password: string | undefined;
  /** IANA zone the reports print times in and the Excel upload reads its dates in. */
  reportTimeZone: string;
  /** Readings one report may hold; a longer period is refused with a request for a shorter one. */
  reportMaxReadings: number;
  /** Minutes a report's file opens without a session (ADR 0070): a `download_url` from when it is answered, a bare id from when the file was made. */
  reportLinkMinutes: number;
  /** RFC 3161 time-stamping authority of every PDF signature (ADR 79); undefined: signatures carry no timestamp. */
  reportTsaUrl: string | undefined;
  /** Deadline of one TSA request; past it the PDF is signed without a timestamp and one is added later. */
  reportTsaTimeoutMs: number;
  /** Delay before the first retry of a missing timestamp, doubled at each further attempt. */
  reportTsaRetrySeconds: number;
  /** Report validator uploads per address and minute (a public route). */
  reportValidateMaxPerMinute: number;
  /** Largest .xlsx upload, as sent (413 above). */
  reportExcelMaxBytes: number;
  /** Bytes an .xlsx upload may inflate to: its declared sizes added up, and again while inflating (413 above). */
  reportExcelMaxInflatedBytes: number;
  /** Parts (zip entries) an .xlsx upload may have. */
  reportExcelMaxEntries: number;
  /** Threads that read uploaded spreadsheets, and the heap limit of each (a file that needs more gets a 413). */
  reportExcelThreads: number;
  reportExcelThreadMemoryMb: number;
  /** File uploads (Excel generation and the validator) per signed-in user, or per address when anonymous, and minute. */
  reportUploadMaxPerMinute: number;
  /** Reports not yet generated one user, and one enterprise, may have in the queue. */
  reportQueueMaxPerUser: number;
  reportQueueMaxPerEnterprise: number;
  /** Firmware files (default `<DATA_DIR>/firmware`). */
  firmwareDir: string;
  /** Largest firmware file; a larger upload is refused (413) before it is read when its length is declared. */
  firmwareMaxBytes: number;
  /** Calibration certificates (default `<DATA_DIR>/calibrations`). */
  calibrationsDir: string;
  /** Minutes between two looks for certificates becoming due or overdue (announced once each); 0: never (tests run it). */
  calibrationCheckMinutes: number;
  /**
   * Where the web app is reached: the base of links sent by e-mail, monitor links and gateway instructions. PUBLIC_URL,
   * or without it the address the server listens on (`publicUrlFromListen`), completed by the server once it listens
   * when PORT is 0 (ADR 69).
   */
  publicUrl: string;
  /** PUBLIC_URL was not given: `publicUrl` is the listen address. */
  publicUrlFromListen: boolean;
  /** SMTP relay (smtp://user:pass@host:587, smtps://…); unset: messages are written to `mailOutboxDir` instead. */
  smtpUrl: string | undefined;
  /** Sender of every message. */
  mailFrom: string;
  /** Without SMTP_URL, each message is an .eml file here (default `<DATA_DIR>/outbox`). */
  mailOutboxDir: string;
  /** How long an e-mail confirmation link works. */
  emailConfirmationHours: number;
  /** How long a password recovery code works, and how many wrong tries it takes before it is spent. */
  passwordResetMinutes: number;
  passwordResetMaxAttempts: number;
  /** Recovery codes sent to one e-mail per hour; beyond it, requests are answered the same but send nothing. */
  passwordResetMaxPerEmailHour: number;
  /** Sign-ups, recovery requests and confirmation resends per client address and hour. */
  accountRequestsMaxPerHour: number;
  /** E-mail availability checks per client address and minute (each one tells whether an account exists). */
  emailAvailableMaxPerMinute: number;
  /** E-mail availability checks per client address and hour. */
  emailAvailableMaxPerHour: number;
  /** Answers about one e-mail or username (availability checks, sign-ups) per hour, whoever asks. */
  accountChecksPerTargetPerHour: number;
  /** 409 "e-mail/username taken" answers per signed-in user (or address) and hour on the user-editing routes. */
  takenAnswersPerHour: number;
  /** The Telegram bot (A12); unset: the Telegram channel is off and the settings screen says so. */
  telegramBotToken: string | undefined;
  /** The Bot API server the bot talks to (default https://api.telegram.org). */
  telegramApiRoot: string;
  /** With it, Telegram posts updates to `<PUBLIC_URL>/api/telegram/webhook` (this address); without it, long polling. */
  telegramWebhookUrl: string | undefined;
  /** The secret Telegram sends with each webhook call (header X-Telegram-Bot-Api-Secret-Token); derived from the token when unset. */
  telegramWebhookSecret: string | undefined;
  /** How long the link the bot's /start answer carries works. */
  telegramLinkMinutes: number;
  /** Root of a Twilio-compatible Messages API (default https://api.twilio.com). */
  smsApiUrl: string;
  /** Account SID and auth token (HTTP Basic) and the sender (a number, a Messaging Service SID MG…, or a sender id); all three or SMS is off. */
  smsAccountSid: string | undefined;
  smsAuthToken: string | undefined;
  smsFrom: string | undefined;
  smsTimeoutMs: number;
  /** Root of the Graph API serving the WhatsApp Cloud API (default https://graph.facebook.com), and its version. */
  whatsappApiUrl: string;
  whatsappApiVersion: string;
  /** The sending number's ID and an access token; both or WhatsApp is off. */
  whatsappPhoneNumberId: string | undefined;
  whatsappAccessToken: string | undefined;
  /** Names and language of the approved templates of an alarm that opened and one that ended (README, ADR 23). */
  whatsappTemplateOpened: string;
  whatsappTemplateEnded: string;
  whatsappTemplateLanguage: string;
  whatsappTimeoutMs: number;
  /** Flapping guard: at most one opening message per device and alarm type in this many minutes; 0: off (ADR 24). */
  alarmFlapMinutes: number;
  /** The VAPID key pair given by settings (base64url); unset: one is made once under `<DATA_DIR>/secrets`. */
  vapidPublicKey: string | undefined;
  vapidPrivateKey: string | undefined;
  vapidKeysFile: string;
  /** Who the push services may contact about this server's messages (mailto: or https:). */
  vapidSubject: string;
  /** Push endpoints over plain HTTP and on loopback/private addresses accepted (local tests only; refused otherwise). */
  pushAllowHttpEndpoints: boolean;
  /** Requests each API token may make per minute (apart from its creator's own budget). ADR 64. */
  apiTokenMaxRequestsPerMinute: number;
  /** Webhook URLs over plain HTTP and on loopback/private addresses accepted (local tests only; refused otherwise). */
  webhookAllowPrivate: boolean;
  /** Seconds a webhook receiver has to answer before the attempt counts as failed. ADR 66. */
  webhookTimeoutSeconds: number;
  /** Ports an outgoing request to a user-chosen address may use (OUTGOING_ALLOWED_PORTS, default 443). */
  outgoingAllowedPorts: number[];
  /** Outgoing requests to user-chosen addresses may reach private/loopback addresses over http (tests, development only). */
  outgoingAllowPrivate: boolean;
  /** Nominatim-compatible address search (…/search); unset: the Locais screen places locations on the map only. */
  geocoderUrl: string | undefined;
  geocoderTimeoutMs: number;
  /** Searches this process sends to the geocoder per minute (cached answers do not count). */
  geocoderMaxPerMinute: number;
  /** Address searches one user may make per minute. */
  geocoderUserMaxPerMinute: number;
  /** Where contact-form messages are e-mailed. */
  contactEmail: string;
  /** Contact messages per client address and hour. */
  contactMaxPerHour: number;
  /** HMAC secret of the contact form's challenges; unset: one is made once under `<DATA_DIR>/secrets`. */
  contactChallengeSecret: string | undefined;
  contactChallengeSecretFile: string;
  /** How long a challenge may be answered, its PBKDF2 iterations, and the largest counter the browser may have to reach. */
  contactChallengeMinutes: number;
  contactChallengeCost: number;
  contactChallengeMaxCounter: number;
  /** Root of a ViaCEP-compatible service; a lookup is `{root}/{cep}/json/`, given up after the timeout. */
  cepLookupUrl: string;
  cepLookupTimeoutMs: number;
  /** The platform's PIX key (CPF, CNPJ, e-mail, phone or random key); unset: invoices cannot be paid by PIX here. */
  pixKey: string | undefined;
  /** Receiver's name (≤ 25) and city (≤ 15) written in the BR Code. */
  pixReceiverName: string;
  pixReceiverCity: string;
  /** Bearer token the PSP's webhook must send to POST /api/pix/webhook; unset: the webhook answers 503. */
  pixWebhookToken: string | undefined;
  /** Days an invoice may stay overdue before the subscription is restricted. */
  billingGraceDays: number;
  /** Days after its period starts that an invoice falls due. */
  billingDueDays: number;
  /** Days before its period starts that an invoice is issued. */
  billingIssueDaysBefore: number;
  /** How often the billing cycle job is queued (it runs at most once an hour); 0 turns it off. */
  billingCycleMinutes: number;
  /** How often the retention job's day run is queued (ADR 0081); 0 turns it off. */
  retentionCheckMinutes: number;
  /** How often the seal job is queued (ADR 0080); 0 turns it off. */
  sealCheckMinutes: number;
  /** The platform's receiving bank account (document 000's fields), from settings only; null: not shown. */
  bankAccount: BankAccount | null;
  /** The payment provider cards are tokenised by (ADR 31); undefined: none, cards cannot be added. */
  cardProvider: CardProviderConfig | undefined;
  /**
   * GET /metrics (X14): with `token`, on the app's port behind `Authorization: Bearer <token>`; with `port`, only on
   * that port (and `host`), still behind the token when one is set; undefined: no metrics are served.
   */
  metrics: { token: string | undefined; port: number | undefined; host: string } | undefined;
  /** How long a SIGTERM shutdown may take (requests answered, batches committed) before the process exits anyway. */
  shutdownTimeoutSeconds: number;
}

/** Pagar.me API v5: the browser tokenises with the public key; the server creates customers and cards with the secret. */
export interface CardProviderConfig {
  name: 'pagarme';
  publicKey: string;
  secretKey: string;
  /** API root without a trailing slash (https://api.pagar.me/core/v5). */
  apiUrl: string;
  timeoutMs: number;
}

/** A bank account with the documents' field names (name, agencia, bank_name, conta, type). */
export interface BankAccount {
  name: string;
  bank_name: string;
  agencia: string;
  conta: string;
  type: 'Corrente' | 'Poupança' | 'Pagamento';
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n');
    throw new Error(`Invalid configuration:\n${lines}`);
  }
  const e = parsed.data;
  if (e.REPORT_SIGNING_P12 && e.REPORT_SIGNING_P12_PASSWORD === undefined) {
    throw new Error('Invalid configuration:\n  REPORT_SIGNING_P12_PASSWORD: required with REPORT_SIGNING_P12 (the password of the certificate file)');
  }
  if (Boolean(e.MQTT_TLS_CERT) !== Boolean(e.MQTT_TLS_KEY)) {
    throw new Error('Invalid configuration:\n  MQTT_TLS_CERT, MQTT_TLS_KEY: give both (the certificate and its private key, PEM files) or neither');
  }
  if (Boolean(e.VAPID_PUBLIC_KEY) !== Boolean(e.VAPID_PRIVATE_KEY)) {
    throw new Error('Invalid configuration:\n  VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY: give both (one key pair) or neither');
  }
  const bankParts = [e.PLATFORM_BANK_NAME, e.PLATFORM_BANK_AGENCY, e.PLATFORM_BANK_ACCOUNT, e.PLATFORM_BANK_HOLDER];
  if (bankParts.some(Boolean) && !bankParts.every(Boolean)) {
    throw new Error('Invalid configuration:\n  PLATFORM_BANK_NAME, PLATFORM_BANK_AGENCY, PLATFORM_BANK_ACCOUNT, PLATFORM_BANK_HOLDER: give all four (the receiving account) or none');
  }
  if (e.CARD_PROVIDER === 'pagarme' && (!e.PAGARME_PUBLIC_KEY || !e.PAGARME_SECRET_KEY)) {
    throw new Error('Invalid configuration:\n  PAGARME_PUBLIC_KEY, PAGARME_SECRET_KEY: required with CARD_PROVIDER=pagarme');
  }
  if (e.HTTP_HEADERS_TIMEOUT_SECONDS > e.HTTP_REQUEST_TIMEOUT_SECONDS) {
    throw new Error('Invalid configuration:\n  HTTP_HEADERS_TIMEOUT_SECONDS: at most HTTP_REQUEST_TIMEOUT_SECONDS (the headers are part of the request)');
  }
  const demo = e.DEMO === undefined ? e.NODE_ENV !== 'production' : e.DEMO === '1';
  if (!e.PUBLIC_URL && e.NODE_ENV === 'production' && !demo) {
    // Links in e-mails and the gateways' instructions would otherwise name this machine's listen address (ADR 69).
    throw new Error(
      'Invalid configuration:\n  PUBLIC_URL: required in production (NODE_ENV=production without DEMO=1): the address users and gateways reach, e.g. https://sentinela.example.com',
    );
  }
  if (e.MQTT_URL && !e.MQTT_GATEWAY_KEY) {
    throw new Error('Invalid configuration:\n  MQTT_GATEWAY_KEY: required with MQTT_URL (the gateway the subscribed readings belong to)');
  }
  if (e.MQTT_SUBSCRIBER_CONNECTIONS > 1 && !e.MQTT_SHARE_GROUP) {
    // Without a shared subscription every connection would receive every message: the work done N times over.
    throw new Error('Invalid configuration:\n  MQTT_SUBSCRIBER_CONNECTIONS: more than 1 only with MQTT_SHARE_GROUP (otherwise each connection receives every message)');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL || undefined,
    dataDir: path.resolve(e.DATA_DIR),
    demo,
    demoLive: e.DEMO_LIVE === undefined ? (e.DEMO === undefined ? e.NODE_ENV !== 'production' : e.DEMO === '1') : e.DEMO_LIVE === '1',
    demoLiveIntervalSeconds: e.DEMO_LIVE_INTERVAL_SECONDS,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY === '1',
    webDist: e.WEB_DIST ? path.resolve(e.WEB_DIST) : undefined,
    webRuntimeConfig: e.WEB_RUNTIME_CONFIG ? (JSON.parse(e.WEB_RUNTIME_CONFIG) as Record<string, unknown>) : undefined,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    loginMaxPerMinute: e.LOGIN_MAX_PER_MINUTE,
    loginFailuresPerAddressPerMinute: e.LOGIN_FAILURES_PER_ADDRESS_PER_MINUTE,
    loginFailuresPerUsernamePerHour: e.LOGIN_FAILURES_PER_USERNAME_PER_HOUR,
    loginSlowdownSeconds: e.LOGIN_SLOWDOWN_SECONDS,
    userMaxRequestsPerMinute: e.USER_MAX_REQUESTS_PER_MINUTE,
    overloadEventLoopDelayMs: e.OVERLOAD_EVENT_LOOP_DELAY_MS,
    overloadRetryAfterSeconds: e.OVERLOAD_RETRY_AFTER_SECONDS,
    socketSubscribesPerMinute: e.SOCKET_SUBSCRIBES_PER_MINUTE,
    socketsPerAddress: e.SOCKETS_PER_ADDRESS,
    socketConnectsPerAddressPerMinute: e.SOCKET_CONNECTS_PER_ADDRESS_PER_MINUTE,
    socketMaxMessageBytes: e.SOCKET_MAX_MESSAGE_BYTES,
    connectionsPerAddress: e.CONNECTIONS_PER_ADDRESS,
    connectionsMax: e.CONNECTIONS_MAX,
    httpHeadersTimeoutSeconds: e.HTTP_HEADERS_TIMEOUT_SECONDS,
    httpRequestTimeoutSeconds: e.HTTP_REQUEST_TIMEOUT_SECONDS,
    httpKeepAliveTimeoutSeconds: e.HTTP_KEEP_ALIVE_TIMEOUT_SECONDS,
    dbPoolSize: e.DB_POOL_SIZE,
    mqttEnabled: e.MQTT_ENABLED === '1',
    mqttPort: e.MQTT_PORT,
    mqttHost: e.MQTT_HOST ?? e.HOST,
    mqttUrl: e.MQTT_URL || undefined,
    mqttGatewayKey: e.MQTT_GATEWAY_KEY || undefined,
    mqttClientId: e.MQTT_CLIENT_ID,
    mqttShareGroup: e.MQTT_SHARE_GROUP || undefined,
    mqttSubscriberConnections: e.MQTT_SUBSCRIBER_CONNECTIONS,
    mqttMaxPacketBytes: e.MQTT_MAX_PACKET_BYTES,
    mqttConnectMaxBytes: e.MQTT_CONNECT_MAX_BYTES,
    mqttConnectTimeoutSeconds: e.MQTT_CONNECT_TIMEOUT_SECONDS,
    mqttIdleTimeoutSeconds: e.MQTT_IDLE_TIMEOUT_SECONDS,
    mqttTls: e.MQTT_TLS_CERT && e.MQTT_TLS_KEY
      ? { certPath: path.resolve(e.MQTT_TLS_CERT), keyPath: path.resolve(e.MQTT_TLS_KEY), port: e.MQTT_TLS_PORT, host: e.MQTT_TLS_HOST ?? e.HOST }
      : undefined,
    ingestBodyLimitBytes: e.INGEST_BODY_LIMIT_BYTES,
    ingestReadingsPerSecond: e.INGEST_READINGS_PER_SECOND,
    ingestBytesPerSecond: e.INGEST_BYTES_PER_SECOND,
    ingestBurstSeconds: e.INGEST_BURST_SECONDS,
    ingestShedEventLoopDelayMs: e.INGEST_SHED_EVENT_LOOP_DELAY_MS,
    ingestParseThreads: e.INGEST_PARSE_THREADS,
    noDataCheckSeconds: e.NO_DATA_CHECK_SECONDS,
    rollupIntervalSeconds: e.ROLLUP_INTERVAL_SECONDS,
    rollupDelayMinutes: e.ROLLUP_DELAY_MINUTES,
    localizatorMaxPerMinute: e.LOCALIZATOR_MAX_PER_MINUTE,
    travelLinkDaysAfterEnd: e.TRAVEL_LINK_DAYS_AFTER_END,
    monitorLookupsPerMinute: e.MONITOR_LOOKUPS_PER_MINUTE,
    redisUrl: e.REDIS_URL || undefined,
    reportsDir: path.resolve(e.REPORTS_DIR || path.join(e.DATA_DIR, 'reports')),
    reportWorkers: e.REPORT_WORKERS,
    reportSigningDir: path.resolve(e.DATA_DIR, 'signing'),
    reportSigningP12: e.REPORT_SIGNING_P12 ? path.resolve(e.REPORT_SIGNING_P12) : undefined,
    reportSigningP12Password: e.REPORT_SIGNING_P12_PASSWORD,
    reportTimeZone: e.REPORT_TIME_ZONE,
    reportMaxReadings: e.REPORT_MAX_READINGS,
    reportLinkMinutes: e.REPORT_LINK_MINUTES,
    reportTsaUrl: e.REPORT_TSA_URL || undefined,
    reportTsaTimeoutMs: e.REPORT_TSA_TIMEOUT_MS,
    reportTsaRetrySeconds: e.REPORT_TSA_RETRY_SECONDS,
    reportValidateMaxPerMinute: e.REPORT_VALIDATE_MAX_PER_MINUTE,
    reportExcelMaxBytes: e.REPORT_EXCEL_MAX_BYTES,
    reportExcelMaxInflatedBytes: e.REPORT_EXCEL_MAX_INFLATED_BYTES,
    reportExcelMaxEntries: e.REPORT_EXCEL_MAX_ENTRIES,
    reportExcelThreads: e.REPORT_EXCEL_THREADS,
    reportExcelThreadMemoryMb: e.REPORT_EXCEL_THREAD_MEMORY_MB,
    reportUploadMaxPerMinute: e.REPORT_UPLOAD_MAX_PER_MINUTE,
    reportQueueMaxPerUser: e.REPORT_QUEUE_MAX_PER_USER,
    reportQueueMaxPerEnterprise: e.REPORT_QUEUE_MAX_PER_ENTERPRISE,
    firmwareDir: path.resolve(e.FIRMWARE_DIR || path.join(e.DATA_DIR, 'firmware')),
    firmwareMaxBytes: e.FIRMWARE_MAX_BYTES,
    calibrationsDir: path.resolve(e.CALIBRATIONS_DIR || path.join(e.DATA_DIR, 'calibrations')),
    calibrationCheckMinutes: e.CALIBRATION_CHECK_MINUTES,
    publicUrl: e.PUBLIC_URL ? e.PUBLIC_URL.replace(/\/+$/, '') : listenUrl(e.HOST, e.PORT),
    publicUrlFromListen: !e.PUBLIC_URL,
    smtpUrl: e.SMTP_URL || undefined,
    mailFrom: e.MAIL_FROM,
    mailOutboxDir: path.resolve(e.MAIL_OUTBOX_DIR || path.join(e.DATA_DIR, 'outbox')),
    emailConfirmationHours: e.EMAIL_CONFIRMATION_HOURS,
    passwordResetMinutes: e.PASSWORD_RESET_MINUTES,
    passwordResetMaxAttempts: e.PASSWORD_RESET_MAX_ATTEMPTS,
    passwordResetMaxPerEmailHour: e.PASSWORD_RESET_MAX_PER_EMAIL_HOUR,
    accountRequestsMaxPerHour: e.ACCOUNT_REQUESTS_MAX_PER_HOUR,
    emailAvailableMaxPerMinute: e.EMAIL_AVAILABLE_MAX_PER_MINUTE,
    emailAvailableMaxPerHour: e.EMAIL_AVAILABLE_MAX_PER_HOUR,
    accountChecksPerTargetPerHour: e.ACCOUNT_CHECKS_PER_TARGET_PER_HOUR,
    takenAnswersPerHour: e.TAKEN_ANSWERS_PER_HOUR,
    telegramBotToken: e.TELEGRAM_BOT_TOKEN || undefined,
    telegramApiRoot: e.TELEGRAM_API_ROOT.replace(/\/+$/, ''),
    telegramWebhookUrl: e.TELEGRAM_WEBHOOK_URL || undefined,
    telegramWebhookSecret: e.TELEGRAM_WEBHOOK_SECRET || undefined,
    telegramLinkMinutes: e.TELEGRAM_LINK_MINUTES,
    smsApiUrl: e.SMS_API_URL.replace(/\/+$/, ''),
    smsAccountSid: e.SMS_ACCOUNT_SID || undefined,
    smsAuthToken: e.SMS_AUTH_TOKEN || undefined,
    smsFrom: e.SMS_FROM || undefined,
    smsTimeoutMs: e.SMS_TIMEOUT_MS,
    whatsappApiUrl: e.WHATSAPP_API_URL.replace(/\/+$/, ''),
    whatsappApiVersion: e.WHATSAPP_API_VERSION,
    whatsappPhoneNumberId: e.WHATSAPP_PHONE_NUMBER_ID || undefined,
    whatsappAccessToken: e.WHATSAPP_ACCESS_TOKEN || undefined,
    whatsappTemplateOpened: e.WHATSAPP_TEMPLATE_OPENED,
    whatsappTemplateEnded: e.WHATSAPP_TEMPLATE_ENDED,
    whatsappTemplateLanguage: e.WHATSAPP_TEMPLATE_LANGUAGE,
    whatsappTimeoutMs: e.WHATSAPP_TIMEOUT_MS,
    alarmFlapMinutes: e.ALARM_FLAP_MINUTES,
    vapidPublicKey: e.VAPID_PUBLIC_KEY || undefined,
    vapidPrivateKey: e.VAPID_PRIVATE_KEY || undefined,
    vapidKeysFile: path.resolve(e.DATA_DIR, 'secrets', 'vapid.json'),
    vapidSubject: e.VAPID_SUBJECT || `mailto:${e.CONTACT_EMAIL}`,
    pushAllowHttpEndpoints: e.PUSH_ALLOW_HTTP_ENDPOINTS === '1',
    apiTokenMaxRequestsPerMinute: e.API_TOKEN_MAX_REQUESTS_PER_MINUTE,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE === '1',
    webhookTimeoutSeconds: e.WEBHOOK_TIMEOUT_SECONDS,
    outgoingAllowedPorts: e.OUTGOING_ALLOWED_PORTS.split(',').map((p) => Number(p.trim())),
    outgoingAllowPrivate: e.OUTGOING_ALLOW_PRIVATE === '1',
    geocoderUrl: e.GEOCODER_URL || undefined,
    geocoderTimeoutMs: e.GEOCODER_TIMEOUT_MS,
    geocoderMaxPerMinute: e.GEOCODER_MAX_PER_MINUTE,
    geocoderUserMaxPerMinute: e.GEOCODER_USER_MAX_PER_MINUTE,
    contactEmail: e.CONTACT_EMAIL,
    contactMaxPerHour: e.CONTACT_MAX_PER_HOUR,
    contactChallengeSecret: e.CONTACT_CHALLENGE_SECRET || undefined,
    contactChallengeSecretFile: path.resolve(e.DATA_DIR, 'secrets', 'contact-challenge.key'),
    contactChallengeMinutes: e.CONTACT_CHALLENGE_MINUTES,
    contactChallengeCost: e.CONTACT_CHALLENGE_COST,
    contactChallengeMaxCounter: e.CONTACT_CHALLENGE_MAX_COUNTER,
    cepLookupUrl: e.CEP_LOOKUP_URL.replace(/\/+$/, ''),
    cepLookupTimeoutMs: e.CEP_LOOKUP_TIMEOUT_MS,
    pixKey: e.PIX_KEY || undefined,
    pixReceiverName: e.PIX_RECEIVER_NAME,
    pixReceiverCity: e.PIX_RECEIVER_CITY,
    pixWebhookToken: e.PIX_WEBHOOK_TOKEN || undefined,
    billingGraceDays: e.BILLING_GRACE_DAYS,
    billingDueDays: e.BILLING_DUE_DAYS,
    billingIssueDaysBefore: e.BILLING_ISSUE_DAYS_BEFORE,
    billingCycleMinutes: e.BILLING_CYCLE_MINUTES,
    retentionCheckMinutes: e.RETENTION_CHECK_MINUTES,
    sealCheckMinutes: e.SEAL_CHECK_MINUTES,
    bankAccount:
      e.PLATFORM_BANK_NAME && e.PLATFORM_BANK_AGENCY && e.PLATFORM_BANK_ACCOUNT && e.PLATFORM_BANK_HOLDER
        ? { name: e.PLATFORM_BANK_HOLDER, bank_name: e.PLATFORM_BANK_NAME, agencia: e.PLATFORM_BANK_AGENCY, conta: e.PLATFORM_BANK_ACCOUNT, type: e.PLATFORM_BANK_ACCOUNT_TYPE }
        : null,
    cardProvider:
      e.CARD_PROVIDER === 'pagarme' && e.PAGARME_PUBLIC_KEY && e.PAGARME_SECRET_KEY
        ? { name: 'pagarme', publicKey: e.PAGARME_PUBLIC_KEY, secretKey: e.PAGARME_SECRET_KEY, apiUrl: e.PAGARME_API_URL.replace(/\/+$/, ''), timeoutMs: e.PAGARME_TIMEOUT_MS }
        : undefined,
    metrics: e.METRICS_TOKEN || e.METRICS_PORT !== undefined
      ? { token: e.METRICS_TOKEN || undefined, port: e.METRICS_PORT, host: e.METRICS_HOST ?? e.HOST }
      : undefined,
    shutdownTimeoutSeconds: e.SHUTDOWN_TIMEOUT_SECONDS,
  };
}

function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON.parse(text);
    return !!value && typeof value === 'object' && !Array.isArray(value);
  } catch {
    return false;
  }
}

/** The key types of PIX (Banco Central): CPF, CNPJ, e-mail, phone in E.164 (+55), random key (EVP). */
export function isPixKey(key: string): boolean {
  return (
    /^\d{11}$|^\d{14}$/.test(key) ||
    /^\+55\d{10,11}$/.test(key) ||
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(key) ||
    (key.length <= 77 && /^[a-z0-9._%+-]+@[a-z0-9-]+(\.[a-z0-9-]+)+$/.test(key))
  );
}

/** BR Code name and city: plain ASCII once accents are dropped (the EMV lengths count characters). */
function isBrCodeText(text: string, max: number): boolean {
  const plain = text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
  return plain.trim().length > 0 && plain.length <= max && /^[A-Za-z0-9 .,'&/-]+$/.test(plain);
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
