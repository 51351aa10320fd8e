import Fastify, { type FastifyBaseLogger, type FastifyInstance, type RouteOptions } from 'fastify';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppConfig } from './config/config';
import type { Db } from './db/database';
import { systemClock, type Clock } from './lib/clock';
import errorHandler, { frameworkError } from './plugins/error-handler';
import connections from './plugins/connections';
import loadShedding from './plugins/load-shedding';
import securityHeaders from './plugins/security-headers';
import auditContext from './plugins/audit-context';
import auth from './plugins/auth';
import rateLimits from './plugins/rate-limits';
import accessLog from './plugins/access-log';
import web from './plugins/web';
import ingestion from './plugins/ingestion';
import mqtt from './plugins/mqtt';
import alarmMonitor from './plugins/alarm-monitor';
import rollupMaintenance from './plugins/rollup-maintenance';
import realtime from './plugins/realtime';
import jobs from './plugins/jobs';
import liveDemo from './plugins/live-demo';
import openapi from './plugins/openapi';
import metrics from './plugins/metrics';
import { createServices, type AppServices } from './services';
import { healthRoutes } from './modules/health/routes';
import { authRoutes } from './modules/auth/routes';
import { userCreationRoutes, userRoutes } from './modules/users/routes';
import { deviceRoutes } from './modules/devices/routes';
import { beaconRoutes } from './modules/beacons/routes';
import { deviceLinkRoutes } from './modules/device-links/routes';
import { accessLogRoutes } from './modules/access-log/routes';
import { enterpriseRoutes } from './modules/enterprises/routes';
import { historyRoutes } from './modules/readings/history-routes';
import { ingestHttpRoutes } from './ingest/http-routes';
import { ruuviHttpRoutes } from './ingest/ruuvi-http-routes';
import { gatewayRoutes } from './modules/gateways/routes';
import { monitorLinkRoutes } from './modules/monitor-links/routes';
import { plansAdminRoutes } from './modules/plans-admin/routes';
import { alarmRoutes } from './modules/alarms/routes';
import { openAlarmRoutes } from './modules/open-alarms/routes';
import { travelRoutes } from './modules/travels/routes';
import { reportRoutes } from './modules/reports/routes';
import { accountRoutes } from './modules/accounts/routes';
import { profileRoutes } from './modules/profile/routes';
import { siteRoutes } from './modules/site/routes';
import { firmwareRoutes } from './modules/firmware/routes';
import { notificationRoutes } from './modules/notifications/routes';
import { escalationRoutes } from './modules/notifications/escalation-routes';
import { pushRoutes } from './modules/push/routes';
import { locationRoutes } from './modules/locations/routes';
import { contactRoutes } from './modules/contact/routes';
import { enterpriseAccountRoutes } from './modules/enterprise-account/routes';
import { billingRoutes } from './modules/billing/routes';
import { financialRoutes } from './modules/billing/financial-routes';
import { cardRoutes } from './modules/cards/routes';
import { subscriptionRoutes } from './modules/subscriptions/routes';
import { auditTrailRoutes } from './modules/audit-trail/routes';
import { complianceRoutes } from './modules/compliance/routes';
import { apiTokenRoutes } from './modules/api-tokens/routes';
import { readingsExportRoutes } from './modules/readings/export-routes';
import { webhookRoutes } from './modules/webhooks/routes';
import { retentionRoutes } from './modules/retention/routes';
import { sealRoutes } from './modules/seals/routes';
import { calibrationRoutes } from './modules/calibrations/routes';
import { mappingStudyRoutes } from './modules/mapping-studies/routes';

export interface BuildAppOptions {
  config: AppConfig;
  db: Db;
  clock?: Clock;
  logger?: FastifyBaseLogger | boolean;
  /** Told of every route as it is registered (tests walk all routes without listing them). */
  onRoute?: (route: RouteOptions) => void;
}

export interface App {
  app: FastifyInstance;
  services: AppServices;
}

/** Builds the whole app without listening: what the server runs and what tests `inject` into. */
export async function buildApp(options: BuildAppOptions): Promise<App> {
  const { config, db } = options;
  const app = Fastify({
    loggerInstance: typeof options.logger === 'object' ? options.logger : undefined,
    logger: typeof options.logger === 'boolean' ? options.logger : undefined,
    bodyLimit: config.bodyLimitBytes,
    trustProxy: config.trustProxy,
    frameworkErrors: frameworkError,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  if (options.onRoute) app.addHook('onRoute', options.onRoute);

  const services = createServices(config, db, options.clock ?? systemClock, app.log);

  // Ecosystem first, then ours, then routes.
  // The connection guard before anything: a connection over its address's cap costs nothing else.
  await app.register(connections, { config });
  // Shedding first: an overloaded process answers 503 before spending anything on the request.
  // Metrics first: the duration of every request is observed, shed ones included.
  await app.register(metrics, { services });
  await app.register(loadShedding, { load: services.load, maxEventLoopDelayMs: config.overloadEventLoopDelayMs, retryAfterSeconds: config.overloadRetryAfterSeconds });
  await app.register(securityHeaders, { webDist: config.webDist, runtimeConfig: config.webRuntimeConfig, cardProviderUrl: config.cardProvider?.apiUrl });
  await app.register(errorHandler);
  // Before auth: the request's audit context exists before the caller is known (ADR 0060).
  await app.register(auditContext);
  await app.register(auth, {
    sessions: services.sessions,
    apiTokens: services.apiTokens,
    requestsPerUser: services.rateLimits.hotLimit({ name: 'user-requests', points: config.userMaxRequestsPerMinute, windowSeconds: 60 }),
    requestsPerToken: services.rateLimits.hotLimit({ name: 'api-token-requests', points: config.apiTokenMaxRequestsPerMinute, windowSeconds: 60 }),
  });
  await app.register(rateLimits, { services });
  await app.register(accessLog, { services });
  await app.register(ingestion, { services });
  await app.register(mqtt, { services });
  await app.register(alarmMonitor, { services });
  await app.register(rollupMaintenance, { services });
  await app.register(realtime, { services });
  await app.register(jobs, { services });
  await app.register(liveDemo, { services });
  // Before the routes: it describes every route registered after it (ADR 34).
  await app.register(openapi);

  // One line each: every module adds its routes here.
  const routeModules = [
    healthRoutes,
    authRoutes,
    userRoutes,
    deviceRoutes,
    beaconRoutes,
    deviceLinkRoutes,
    accessLogRoutes,
    enterpriseRoutes,
    historyRoutes,
    ingestHttpRoutes,
    ruuviHttpRoutes,
    gatewayRoutes,
    alarmRoutes,
    travelRoutes,
    reportRoutes,
    accountRoutes,
    profileRoutes,
    siteRoutes,
    firmwareRoutes,
    notificationRoutes,
    locationRoutes,
    contactRoutes,
    enterpriseAccountRoutes,
    billingRoutes,
    subscriptionRoutes,
    userCreationRoutes,
    escalationRoutes,
    openAlarmRoutes,
    pushRoutes,
    monitorLinkRoutes,
    plansAdminRoutes,
    financialRoutes,
    cardRoutes,
    auditTrailRoutes,
    complianceRoutes,
    apiTokenRoutes,
    readingsExportRoutes,
    webhookRoutes,
    retentionRoutes,
    calibrationRoutes,
    sealRoutes,
    mappingStudyRoutes,
  ];
  for (const routes of routeModules) {
    await app.register(routes, { services });
  }
  await app.register(web, { webDist: config.webDist, runtimeConfig: config.webRuntimeConfig });
  return { app, services };
}
