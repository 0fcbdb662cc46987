import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyHelmet from '@fastify/helmet';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyRequest, type FastifyServerOptions } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { registerAdminRoutes } from './admin/routes.ts';
import { registerAlarmLogRoutes } from './alarm-log/routes.ts';
import { startMigrationWorker } from './amendment-migration/migration-worker.ts';
import { registerMigrationRoutes } from './amendment-migration/routes.ts';
import { registerAmendmentRoutes } from './amendments/routes.ts';
import type { AppContext } from './app-context.ts';
import { registerAttachmentRoutes } from './attachments/routes.ts';
import { registerAuditReviewRoutes } from './audit-review/routes.ts';
import { type Access, applyAccess } from './auth/route-access.ts';
import { registerAuthRoutes } from './auth/routes.ts';
import type { PollingLoop } from './background/polling-loop.ts';
import { registerBlindingRoutes } from './blinding/routes.ts';
import { registerCasebookRoutes } from './casebook/routes.ts';
import { startMonitoringWorker } from './central-monitoring/monitoring-worker.ts';
import { registerCentralMonitoringRoutes } from './central-monitoring/routes.ts';
import { registerCodingRoutes } from './coding/routes.ts';
import { fastifyTrustProxy } from './config.ts';
import { registerDashboardRoutes } from './dashboard/routes.ts';
import { registerSubjectRoutes } from './data-entry/routes.ts';
import { type ExportRunner, startExportRunner } from './data-exports/export-runner.ts';
import { registerDataExportRoutes } from './data-exports/routes.ts';
import { registerFormPhotoRoutes } from './form-photos/routes.ts';
import { registerGuidelineRoutes } from './guidelines/routes.ts';
import { registerHealthRoutes } from './health/routes.ts';
import { registerHoldRoutes } from './holds/routes.ts';
import { applyBodyPolicy } from './http/body-policy.ts';
import { answerClientError } from './http/client-errors.ts';
import { answerFrameworkError, registerErrorHandling } from './http/errors.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { documentRefusals } from './http/refusals.ts';
import type { App } from './http/types.ts';
import { refuseBadUrlText } from './http/url-text.ts';
import { registerLabRangeRoutes } from './lab-ranges/routes.ts';
import { countRequests, registerMetricsRoute } from './metrics/routes.ts';
import { registerNoticeRoutes } from './notices/routes.ts';
import { startNotificationWorker } from './notifications/notification-worker.ts';
import { scheduleOverdueVisitReminders } from './notifications/remind-overdue-visits.ts';
import { logOnlyEmailSender, logOnlySmsSender, smtpEmailSender } from './notifications/senders.ts';
import { registerQueryRoutes } from './queries/routes.ts';
import { registerRandomizationRoutes } from './randomization/routes.ts';
import { scheduleSubjectFactTotalsCompaction } from './read-model/subject-fact-totals.ts';
import { registerReportRoutes } from './reports/routes.ts';
import { registerReviewListingRoutes } from './review-listings/routes.ts';
import { scheduleSaeReminders } from './safety/remind-sae-reports.ts';
import { registerSaeRoutes } from './safety/routes.ts';
import { registerSdvRoutes } from './sdv/routes.ts';
import { registerSignatureRoutes } from './signatures/routes.ts';
import { registerStudyRoutes } from './studies/routes.ts';
import { registerStudyDesignRoutes } from './study-design/routes.ts';
import { registerSummaryRoutes } from './summary/routes.ts';
import { registerTaskNoticeRoutes } from './task-notices/routes.ts';
import { scheduleTaskNotices } from './task-notices/send-due-task-notices.ts';
import { registerTrainingRoutes } from './training/routes.ts';
import { trainingWriteGate } from './training-gate/training-gate.ts';
import { registerUnscheduledVisitRoutes } from './unscheduled-visits/routes.ts';
import { registerUploadRoutes } from './uploads/routes.ts';
import { productVersion } from './version.ts';
import { registerVisitAlarmRoutes } from './visit-alarms/routes.ts';
import { registerWebApp } from './web/static-web-app.ts';

export interface BuildAppOptions {
  /** Pino logger options; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /**
   * Run queued export jobs in this process (default: yes). Tests of the job functions turn it off
   * to drive claims and runs themselves.
   */
  exportRunner?: boolean;
  /**
   * Deliver queued notifications from this process and write the daily overdue-visit reminders
   * (default: yes). Tests that read the outbox or fingerprint the database turn it off.
   */
  notificationWorker?: boolean;
  /**
   * Run amendment migration jobs from this process (default: yes). Tests that drive the jobs turn by
   * turn (`runMigrationTurn`) turn it off.
   */
  migrationWorker?: boolean;
  /**
   * Run central monitoring (issue 50) from this process (default: yes): runs queued on request and
   * for studies whose data changed. The test app turns it off; tests drive `runMonitoringTurn`.
   */
  monitoringWorker?: boolean;
}

/** Logs never carry credentials: cookies, tokens and any field named like a password. */
export const logRedactPaths = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.token',
  '*.csrfToken',
];

/**
 * The server's logger (issue 52): pino's JSON lines, one object a line. Every line a request logs
 * carries its `reqId` (Fastify's child logger; `genReqId` below). A request is logged by method, route
 * pattern and path without its query string — a query may hold a search text or an e-mail address —
 * and never with its body or headers; the redaction above is the second line of defence.
 */
export function serverLoggerOptions(
  level: string,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: logRedactPaths,
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        route: request.routeOptions?.url,
        path: (request.url ?? '').split('?')[0],
        remoteAddress: request.ip,
      }),
    },
  };
}

export async function buildApp(context: AppContext, options: BuildAppOptions = {}): Promise<App> {
  const app = Fastify({
    logger: options.logger ?? false,
    trustProxy: fastifyTrustProxy(context.config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Requests get a random id; logs of one request share it.
    genReqId: () => crypto.randomUUID(),
    // Errors Fastify meets before routing (a path that is not valid percent-encoding) get the one
    // error shape too, not Fastify's own English body.
    frameworkErrors: answerFrameworkError,
    // And requests Node's HTTP parser refuses before Fastify (headers or URL over 16 KB → 431).
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerErrorHandling(app);
  // The input policy at the edge (issue 11): JSON only as UTF-8 of valid Unicode, and the same text
  // rules for query strings and path parameters, before any route sees them.
  registerJsonBodyParser(app);
  app.addHook('onRequest', refuseBadUrlText);
  app.addHook('onRoute', applyBodyPolicy);
  // Who may call each /api route, as it declares (`config.access`): its sign-in and study hooks.
  app.addHook('onRoute', applyAccess(context, trainingWriteGate));
  // After the body policy and the access hooks: their refusals are among the answers documented.
  app.addHook('onRoute', documentRefusals);
  app.decorateRequest('principal', null);
  app.decorateRequest('signedIn', null);
  // Every API route, as registered: the authorization-matrix test checks each one is covered.
  const apiRoutes: { method: string; url: string; access: Access | undefined }[] = [];
  app.decorate('apiRoutes', apiRoutes);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    for (const method of [route.method].flat())
      if (method !== 'HEAD') apiRoutes.push({ method, url: route.url, access: route.config?.access });
  });
  // Issue 52: the hook that counts every request's answer for /metrics (before the routes).
  const metrics = countRequests(app, context);
  await app.register(fastifyCookie);

  // API answers of 1 KB and more are compressed as the client accepts (br, then gzip; brotli at
  // quality 4, the plugin's default for on-the-fly work); streamed downloads are compressed as they
  // stream. The web app's files were compressed at build time and go out as they are
  // (web/static-web-app.ts), so only /api routes take part. Request bodies are never decompressed:
  // the JSON parser reads exactly the bytes sent (http/json-body.ts).
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/')) route.compress = false;
  });
  await app.register(fastifyCompress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    globalDecompression: false,
  });

  await app.register(fastifyHelmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        frameAncestors: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        // Served over plain http on an intranet too: do not force https on every subresource.
        upgradeInsecureRequests: null,
      },
    },
    // Strict-Transport-Security only makes sense once the site is served over https.
    strictTransportSecurity: context.config.env === 'production',
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.0.3',
      info: {
        title: 'CDMS API',
        description:
          'Clinical data management system (eCRF). Every error has the shape {"error":{"code","message","details"?}} ' +
          '(the schema `Error`); each operation lists the refusals it can answer with.',
        version: productVersion,
      },
    },
    transform: jsonSchemaTransform,
    // Components: the one error schema (`Error`) every refusal refers to. It is only ever an answer,
    // so the input twin the zod transform makes of every registered schema (`ErrorInput`) is left out.
    transformObject: (documentObject) => {
      const document = jsonSchemaTransformObject(documentObject);
      if ('components' in document) delete document.components?.schemas?.ErrorInput;
      return document;
    },
  });
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP: true,
    // Swagger UI's page runs an inline script; allow exactly that on its own pages.
    transformStaticCSP: (header) => header,
  });

  registerHealthRoutes(app, context);
  registerMetricsRoute(app, context, metrics);
  registerAuthRoutes(app, context, trainingWriteGate);
  registerAdminRoutes(app, context);
  registerStudyRoutes(app, context);
  registerStudyDesignRoutes(app, context);
  registerAmendmentRoutes(app, context);
  let migrationWorker: PollingLoop | undefined;
  if (options.migrationWorker ?? true) {
    const worker = startMigrationWorker(context.database.db, {
      leaseSeconds: context.config.migrationLeaseSeconds,
      onError: (error) => app.log.error({ err: error }, 'amendment migration'),
      onWorkDone: (seconds) => metrics.jobDuration.observe({ job: 'migration' }, seconds),
    });
    migrationWorker = worker;
    app.addHook('onClose', () => worker.stop());
  }
  registerMigrationRoutes(app, context, migrationWorker);
  registerNoticeRoutes(app, context);
  registerSubjectRoutes(app, context);
  registerUnscheduledVisitRoutes(app, context);
  registerRandomizationRoutes(app, context);
  registerBlindingRoutes(app, context);
  registerVisitAlarmRoutes(app, context);
  registerDashboardRoutes(app, context);
  registerSignatureRoutes(app, context);
  registerQueryRoutes(app, context);
  registerReviewListingRoutes(app, context);
  registerReportRoutes(app, context);
  registerSummaryRoutes(app, context);
  registerHoldRoutes(app, context);
  registerSdvRoutes(app, context);
  registerLabRangeRoutes(app, context);
  registerAlarmLogRoutes(app, context);
  registerTrainingRoutes(app, context);
  registerAuditReviewRoutes(app, context);
  registerCasebookRoutes(app, context);
  registerSaeRoutes(app, context);
  let monitoringWorker: PollingLoop | undefined;
  if (options.monitoringWorker ?? true) {
    const worker = startMonitoringWorker(context.database.db, {
      refreshMinutes: context.config.monitoringRefreshMinutes,
      onError: (error) => app.log.error({ err: error }, 'central monitoring'),
      onWorkDone: (seconds) => metrics.jobDuration.observe({ job: 'monitoring' }, seconds),
    });
    monitoringWorker = worker;
    app.addHook('onClose', () => worker.stop());
  }
  registerCentralMonitoringRoutes(app, context, monitoringWorker);
  let exportRunner: ExportRunner | undefined;
  if (options.exportRunner ?? true) {
    const runner = startExportRunner(context.database.db, {
      onError: (error) => app.log.error({ err: error }, 'export runner'),
      onWorkDone: (seconds) => metrics.jobDuration.observe({ job: 'export' }, seconds),
    });
    exportRunner = runner;
    app.addHook('onClose', () => runner.stop());
  }
  registerDataExportRoutes(app, context, exportRunner);
  if (options.notificationWorker ?? true) {
    const log = (message: string, fields: Record<string, unknown>) => app.log.warn(fields, message);
    const { smtp } = context.config;
    const worker = startNotificationWorker(context.database.db, {
      email: smtp.url ? smtpEmailSender(smtp.url, smtp.from) : logOnlyEmailSender(log),
      sms: logOnlySmsSender(log),
      onError: (error) => app.log.error({ err: error }, 'notification worker'),
    });
    app.addHook('onClose', () => worker.stop());
    const reminders = scheduleOverdueVisitReminders(context.database.db, (error) =>
      app.log.error({ err: error }, 'overdue visit reminders'),
    );
    app.addHook('onClose', async () => reminders.stop());
    const saeReminders = scheduleSaeReminders(context.database.db, (error) =>
      app.log.error({ err: error }, 'SAE report reminders'),
    );
    app.addHook('onClose', async () => saeReminders.stop());
    const taskNotices = scheduleTaskNotices(context.database.db, (error) =>
      app.log.error({ err: error }, 'task notices'),
    );
    app.addHook('onClose', async () => taskNotices.stop());
    const totals = scheduleSubjectFactTotalsCompaction(context.database.db, (error) =>
      app.log.error({ err: error }, 'subject fact totals compaction'),
    );
    app.addHook('onClose', () => totals.stop());
  }
  await registerUploadRoutes(app, context);
  registerAttachmentRoutes(app, context);
  registerCodingRoutes(app, context);
  registerFormPhotoRoutes(app, context);
  registerGuidelineRoutes(app, context);
  registerTaskNoticeRoutes(app, context);
  await registerWebApp(app, context.config.webDistDir);

  return app;
}
