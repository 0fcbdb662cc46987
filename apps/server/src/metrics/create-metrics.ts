import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { DatabaseHandle } from '../db/database.ts';

/**
 * The Prometheus metrics of one app instance (issue 52 item 2), in a registry of its own: tests
 * build several apps in one process, and prom-client's global default registry would mix their
 * numbers and refuse a metric registered twice. docs/OPERATIONS.md lists every metric.
 *
 * Labels never carry an id or a person's data: a request is labelled with its route pattern
 * (`/api/studies/:studyId/...`), never the URL it was called with.
 */
export interface Metrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status_code'>;
  httpRequestDuration: Histogram<'method' | 'route' | 'status_code'>;
  formSaves: Counter;
  jobDuration: Histogram<'job'>;
  poolConnections: Gauge<'state'>;
  poolWaiting: Gauge;
  exportJobs: Gauge<'state'>;
  outboxBacklog: Gauge;
  outboxOldestAge: Gauge;
  auditCheckpointAge: Gauge;
}

let processRegistry: Registry | undefined;

/**
 * The process's own metrics — CPU, memory, event-loop delay, garbage collection (prom-client's
 * defaults) — in a registry of their own, made once per process: they describe the process, not an
 * app, and collecting them starts observers that are never stopped, which one per app would pile up
 * in a test run. /metrics answers them merged with the app's.
 */
export function processMetrics(): Registry {
  if (processRegistry === undefined) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(database: DatabaseHandle): Metrics {
  const registry = new Registry();
  const registers = [registry];

  const poolConnections = new Gauge({
    name: 'cdms_db_pool_connections',
    help: 'Database connections of this process by state (total, idle); PGlite: one, always',
    labelNames: ['state'] as const,
    registers,
    // Read from the pool at each scrape: no query, nothing that can fail.
    collect() {
      const stats = database.poolStats?.();
      if (stats) {
        this.set({ state: 'total' }, stats.total);
        this.set({ state: 'idle' }, stats.idle);
      } else {
        this.set({ state: 'total' }, 1);
      }
    },
  });
  const poolWaiting = new Gauge({
    name: 'cdms_db_pool_waiting',
    help: 'Requests of this process waiting for a database connection',
    registers,
    collect() {
      this.set(database.poolStats?.().waiting ?? 0);
    },
  });

  return {
    registry,
    httpRequests: new Counter({
      name: 'cdms_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'] as const,
      registers,
    }),
    httpRequestDuration: new Histogram({
      name: 'cdms_http_request_duration_seconds',
      help: 'Time from request to answer, by method, route pattern and status code',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    formSaves: new Counter({
      name: 'cdms_form_saves_total',
      help: 'Forms saved (PUT of a form answered 200); rate() gives saves per second',
      registers,
    }),
    jobDuration: new Histogram({
      name: 'cdms_background_job_duration_seconds',
      help: 'How long a background job run by this process took, by job (export: claim to done)',
      labelNames: ['job'] as const,
      buckets: [0.1, 0.5, 1, 5, 15, 30, 60, 120, 300, 600, 1800],
      registers,
    }),
    poolConnections,
    poolWaiting,
    exportJobs: new Gauge({
      name: 'cdms_export_jobs',
      help: 'Export jobs in the shared queue by state (queued, running), all processes; -1 when unread',
      labelNames: ['state'] as const,
      registers,
    }),
    outboxBacklog: new Gauge({
      name: 'cdms_notification_outbox_backlog',
      help: 'Notifications not yet delivered (queued or being sent), all processes; -1 when unread',
      registers,
    }),
    outboxOldestAge: new Gauge({
      name: 'cdms_notification_outbox_oldest_age_seconds',
      help: 'Age of the oldest notification not yet delivered (0 when none); -1 when unread',
      registers,
    }),
    auditCheckpointAge: new Gauge({
      name: 'cdms_audit_checkpoint_age_seconds',
      help:
        'How long the oldest audit record not covered by a signed checkpoint has waited (0 when the ' +
        'latest checkpoint covers every record); -1 when unread',
      registers,
    }),
  };
}
