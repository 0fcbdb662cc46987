import { Registry } from 'prom-client';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { createMetrics, type Metrics, processMetrics } from './create-metrics.ts';
import { metricsAccess } from './metrics-access.ts';
import { readDatabaseGauges } from './read-database-gauges.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a 200 answer of the route counts as beside the request counters: the form save declares
     * `formSave` (data-entry/routes.ts), one save in `cdms_form_saves_total`.
     */
    countedAs?: 'formSave';
  }
}

/** A request no route matched (an unknown path, the web app's fallback page): one label for all. */
const UNMATCHED_ROUTE = '(unmatched)';

/**
 * The metrics of this app, and the hook that counts every answer into them. Added before any route,
 * so every route's answers are counted. Returns the metrics, for `registerMetricsRoute` and for
 * what app.ts instruments beside the routes (the export runner's job durations).
 */
export function countRequests(app: App, context: AppContext): Metrics {
  const metrics = createMetrics(context.database);

  app.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
    const labels = { method: request.method, route, status_code: String(reply.statusCode) };
    metrics.httpRequests.inc(labels);
    metrics.httpRequestDuration.observe(labels, reply.elapsedTime / 1000);
    if (request.routeOptions.config.countedAs === 'formSave' && reply.statusCode === 200)
      metrics.formSaves.inc();
  });
  return metrics;
}

/**
 * `GET /metrics` in Prometheus's text format. Registered with the other routes (after the OpenAPI
 * plugin, which documents only the routes registered after it).
 */
export function registerMetricsRoute(app: App, context: AppContext, metrics: Metrics): void {
  app.get(
    '/metrics',
    {
      // Outside /api, so the access hooks of auth/route-access.ts do not apply: `metricsAccess`
      // (a bearer token, or loopback only) guards it instead.
      onRequest: metricsAccess(context.config.metricsToken),
      // Scraped every few seconds: its requests are not logged one by one (a failed read of the
      // database gauges still is, at warn).
      logLevel: 'warn',
      schema: {
        tags: ['system'],
        summary: 'Prometheus metrics (METRICS_TOKEN as bearer token; without one, this machine only)',
        response: {
          200: {
            description: 'The metrics in Prometheus text format (docs/OPERATIONS.md lists them).',
            // `z.any()`: the text goes out as it is, never through a serializer.
            content: { 'text/plain': { schema: z.any().meta({ type: 'string' }) } },
          },
          ...refusals({
            400: 'A query text that is not valid UTF-8 or holds NUL (`malformed_url`, `invalid_text`).',
            401: 'METRICS_TOKEN is set and the request does not send it as `Authorization: Bearer …` (`unauthenticated`).',
            403: 'No METRICS_TOKEN is set and the request is not from this machine, or came through a proxy (`forbidden`).',
          }),
        },
      },
    },
    async (_request, reply) => {
      await readDatabaseGauges(context.database.db, metrics, (error) =>
        app.log.warn({ err: error }, 'metrics: the database gauges could not be read'),
      );
      const all = Registry.merge([processMetrics(), metrics.registry]);
      const text = await all.metrics();
      return reply.header('cache-control', 'no-store').type(all.contentType).send(text);
    },
  );
}
