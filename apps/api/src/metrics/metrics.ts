import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every Prometheus metric of the process (X14, ADR 67), in one registry per app: tests build many apps in one process,
 * and each must count only its own. Modules are handed this object and increment where the event happens; the
 * plugin `plugins/metrics.ts` serves the registry at GET /metrics.
 *
 * Labels carry only values from small fixed sets (a rejection code, a channel, a queue name, a route pattern, a
 * status code): never an enterprise, a user, a device, a MAC or a raw URL, which would leak tenant data to whoever
 * reads the metrics and make the series unbounded.
 *
 * A module that has events to count (webhook deliveries, issue 23) uses the metric already declared here, or adds its
 * own beside them, so that every name and label set is reviewed in one file.
 */
export class AppMetrics {
  readonly registry = new Registry();

  /** Readings stored (duplicates excluded), counted once per batch. */
  readonly readingsAccepted = new Counter({
    name: 'sentinela_readings_accepted_total',
    help: 'Readings stored by ingestion (HTTP and MQTT), duplicates excluded.',
    registers: [this.registry],
  });

  /** Readings refused, by the rejection code the gateway receives (unknown_device, invalid_ts, …). */
  readonly readingsRejected = new Counter({
    name: 'sentinela_readings_rejected_total',
    help: 'Readings refused by ingestion, by rejection code.',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });

  /** Readings that were already stored (same device and instant): a gateway resending, not a fault. */
  readonly readingsDuplicate = new Counter({
    name: 'sentinela_readings_duplicate_total',
    help: 'Readings received again (same device and instant) and not stored twice.',
    registers: [this.registry],
  });

  /** Time from a batch's arrival at the ingest service to its commit. */
  readonly ingestBatchDuration = new Histogram({
    name: 'sentinela_ingest_batch_duration_seconds',
    help: 'Time to validate and store one ingested batch (HTTP body or MQTT micro-batch), commit included.',
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  /**
   * Ingested batches that failed with an error: the database unavailable (nothing of them acknowledged; gateways
   * resend), or an MQTT micro-batch that is then stored message by message (ADR 12).
   */
  readonly ingestBatchFailures = new Counter({
    name: 'sentinela_ingest_batch_failures_total',
    help: 'Ingested batches that failed with an error (not acknowledged, or retried message by message).',
    registers: [this.registry],
  });

  /**
   * Outcome of each alarm notification attempt: `sent`, `error` (the attempt failed; retried while attempts remain),
   * `failed` (refused for good by the provider), `cancelled` (a reminder of an alarm acknowledged or ended meanwhile),
   * `no_recipient` (push with no browser left).
   */
  readonly alarmNotifications = new Counter({
    name: 'sentinela_alarm_notifications_total',
    help: 'Alarm notification delivery attempts, by channel and outcome.',
    labelNames: ['channel', 'outcome'] as const,
    registers: [this.registry],
  });

  /**
   * Alarm announcements an enterprise's line in this process had no room for (a burst beyond its backlog, ADR 87): the
   * minute sweep announces them. Rising steadily, an enterprise opens alarms faster than they can be told.
   */
  readonly alarmAnnouncementsDeferred = new Counter({
    name: 'sentinela_alarm_announcements_deferred_total',
    help: 'Alarm announcements left to the minute sweep because their enterprise had too many waiting.',
    registers: [this.registry],
  });

  /**
   * Outcome of each outgoing webhook delivery attempt (issue 23): `delivered`, `retry`, `failed`. Declared here so the
   * webhook sender increments it; it stays at zero (no series) until webhooks exist.
   */
  readonly webhookDeliveries = new Counter({
    name: 'sentinela_webhook_deliveries_total',
    help: 'Outgoing webhook delivery attempts, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });

  /** HTTP requests by route pattern (never the raw URL), method and status code. */
  readonly httpRequestDuration = new Histogram({
    name: 'sentinela_http_request_duration_seconds',
    help: 'HTTP request duration by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  /** Jobs waiting in each queue of the job queue; read when scraped (`setQueueDepthSource`). */
  readonly jobQueueDepth = new Gauge({
    name: 'sentinela_job_queue_depth',
    help: 'Jobs ready to run and waiting, per job queue (pg-boss counts, refreshed by its monitor every minute).',
    labelNames: ['queue'] as const,
    registers: [this.registry],
    collect: async () => {
      if (!this.queueDepths) return;
      const depths = await this.queueDepths().catch(() => null);
      if (!depths) return;
      for (const { queue, depth } of depths) this.jobQueueDepth.set({ queue }, depth);
    },
  });

  /** Live-channel (Socket.IO) connections open on this process; read when scraped. */
  readonly socketConnections = new Gauge({
    name: 'sentinela_socket_connections',
    help: 'Live-channel (Socket.IO) connections open on this process.',
    registers: [this.registry],
    collect: () => {
      if (this.socketCount) this.socketConnections.set(this.socketCount());
    },
  });

  /** MQTT clients connected to the embedded broker; read when scraped. */
  readonly mqttConnections = new Gauge({
    name: 'sentinela_mqtt_connections',
    help: 'Gateways connected to the embedded MQTT broker of this process.',
    registers: [this.registry],
    collect: () => {
      if (this.mqttCount) this.mqttConnections.set(this.mqttCount());
    },
  });

  private queueDepths: (() => Promise<{ queue: string; depth: number }[]>) | undefined;
  private socketCount: (() => number) | undefined;
  private mqttCount: (() => number) | undefined;

  constructor(options: { defaultMetrics?: boolean } = {}) {
    // prom-client's process and Node metrics (CPU, memory, event-loop lag, GC, handles), with its standard names.
    if (options.defaultMetrics ?? true) collectDefaultMetrics({ register: this.registry });
  }

  /** Where the job-queue gauge reads its depths (the job queue, once started). */
  setQueueDepthSource(source: () => Promise<{ queue: string; depth: number }[]>): void {
    this.queueDepths = source;
  }

  /** Where the socket gauge reads its count (the Socket.IO server). */
  setSocketCountSource(source: () => number): void {
    this.socketCount = source;
  }

  /** Where the MQTT gauge reads its count (the embedded broker). */
  setMqttConnectionSource(source: (() => number) | undefined): void {
    this.mqttCount = source;
  }

  /** Counts one stored batch: one increment per counter, whatever the batch's size (the ingest hot path). */
  batchStored(result: { accepted: number; duplicates: number; rejected: readonly { code: string }[] }, seconds: number): void {
    if (result.accepted > 0) this.readingsAccepted.inc(result.accepted);
    if (result.duplicates > 0) this.readingsDuplicate.inc(result.duplicates);
    if (result.rejected.length > 0) {
      const byReason = new Map<string, number>();
      for (const r of result.rejected) byReason.set(r.code, (byReason.get(r.code) ?? 0) + 1);
      for (const [reason, n] of byReason) this.readingsRejected.inc({ reason }, n);
    }
    this.ingestBatchDuration.observe(seconds);
  }
}
