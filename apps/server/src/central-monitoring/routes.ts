import {
  dismissSignalRequestSchema,
  monitoringPanelResponseSchema,
  monitoringParamsSchema,
  monitoringResponseSchema,
  noteSignalRequestSchema,
  raiseSignalQueriesRequestSchema,
  raiseSignalQueriesResponseSchema,
  requestMonitoringRunResponseSchema,
  saveToleranceLimitsRequestSchema,
  saveToleranceLimitsResponseSchema,
  signalListQuerySchema,
  signalListResponseSchema,
  signalParamsSchema,
  signalResponseSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import type { PollingLoop } from '../background/polling-loop.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { listSignals, readSignal } from './list-signals.ts';
import { monitoringScopes } from './monitoring-scope.ts';
import { raiseSignalQueries } from './raise-signal-queries.ts';
import { readMonitoring } from './read-monitoring.ts';
import { readMonitoringPanel } from './read-monitoring-panel.ts';
import { requestMonitoringRun } from './request-monitoring-run.ts';
import { resolveSignal } from './resolve-signal.ts';
import { saveToleranceLimits } from './save-tolerance-limits.ts';

const REVIEWERS = 'The role may not review central monitoring (CRA, DM and ADMIN may) (`forbidden`).';
const NO_SIGNAL = 'No such signal in the study at a site of the caller (`not_found`).';
const DISMISSED = 'The signal was dismissed (`monitoring_signal_dismissed`).';

/** Central monitoring (issue 50): indicators, limits, signals and their actions, and the run. */
export function registerCentralMonitoringRoutes(
  app: App,
  context: AppContext,
  worker: PollingLoop | undefined,
): void {
  const { db } = context.database;
  const tags = ['central monitoring'];

  app.get(
    '/api/studies/:studyId/monitoring',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "The central monitoring page: the run, the limits, each site's key risk indicators with trends (site staff: their own sites) and the signals counted by state",
        params: monitoringParamsSchema,
        response: { 200: monitoringResponseSchema, ...refusals({}) },
      },
    },
    async (request) => readMonitoring(db, principalOf(request), request.params.studyId),
  );

  app.get(
    '/api/studies/:studyId/monitoring/panel',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "The dashboard's analysis panel from the stored run: the strongest open signals and the flagged indicators",
        params: monitoringParamsSchema,
        response: { 200: monitoringPanelResponseSchema, ...refusals({}) },
      },
    },
    async (request) => readMonitoringPanel(db, principalOf(request), request.params.studyId),
  );

  app.get(
    '/api/studies/:studyId/monitoring/signals',
    {
      config: { access: { study: 'monitoring.review' } },
      schema: {
        tags,
        summary:
          "The study's signals at the caller's sites, strongest first, filtered by site, kind and state, paged",
        params: monitoringParamsSchema,
        querystring: signalListQuerySchema,
        response: { 200: signalListResponseSchema, ...refusals({ 403: REVIEWERS }) },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { studyId } = request.params;
      return listSignals(db, studyId, monitoringScopes(principal, studyId).signals, request.query);
    },
  );

  app.post(
    '/api/studies/:studyId/monitoring/signals/:signalId/queries',
    {
      config: { access: { study: 'monitoring.review' } },
      schema: {
        tags,
        summary:
          'One manual query per item and subject the signal names, one text, one transaction; the signal becomes queried (audited)',
        params: signalParamsSchema,
        body: raiseSignalQueriesRequestSchema,
        response: {
          201: raiseSignalQueriesResponseSchema,
          ...refusals({
            403: `${REVIEWERS} Or the role may not raise queries (\`forbidden\`).`,
            404: `${NO_SIGNAL} Or a subject, visit or form it names is gone.`,
            409: `${DISMISSED} Or it names no subject at a visit (\`monitoring_signal_nothing_to_query\`).`,
            422: 'An item the signal names is no longer in the form (`query_item_unknown`).',
            423: 'A hold on a subject refuses new queries.',
          }),
        },
      },
    },
    async (request, reply) => {
      const queryIds = await raiseSignalQueries(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.signalId,
        request.body.text,
      );
      return reply.code(201).send({ queryIds });
    },
  );

  app.post(
    '/api/studies/:studyId/monitoring/signals/:signalId/note',
    {
      config: { access: { study: 'monitoring.review' } },
      schema: {
        tags,
        summary: 'A note on the signal for the next monitoring visit; the signal becomes noted (audited)',
        params: signalParamsSchema,
        body: noteSignalRequestSchema,
        response: {
          200: signalResponseSchema,
          ...refusals({ 403: REVIEWERS, 404: NO_SIGNAL, 409: DISMISSED }),
        },
      },
    },
    async (request) => {
      const { studyId, signalId } = request.params;
      await resolveSignal(db, principalOf(request), actorOf(request), studyId, signalId, {
        state: 'noted',
        text: request.body.text,
      });
      return { signal: await readSignal(db, studyId, signalId) };
    },
  );

  app.post(
    '/api/studies/:studyId/monitoring/signals/:signalId/dismiss',
    {
      config: { access: { study: 'monitoring.review' } },
      schema: {
        tags,
        summary: 'The signal dismissed with a reason: it stays dismissed across runs (audited)',
        params: signalParamsSchema,
        body: dismissSignalRequestSchema,
        response: {
          200: signalResponseSchema,
          ...refusals({ 403: REVIEWERS, 404: NO_SIGNAL, 409: DISMISSED }),
        },
      },
    },
    async (request) => {
      const { studyId, signalId } = request.params;
      await resolveSignal(db, principalOf(request), actorOf(request), studyId, signalId, {
        state: 'dismissed',
        reason: request.body.reason,
      });
      return { signal: await readSignal(db, studyId, signalId) };
    },
  );

  app.put(
    '/api/studies/:studyId/monitoring/tolerance-limits',
    {
      config: { access: { study: 'monitoring.limits' } },
      schema: {
        tags,
        summary:
          "The study's quality tolerance limits of the indicators named, with a reason (DM, ADMIN; audited)",
        params: monitoringParamsSchema,
        body: saveToleranceLimitsRequestSchema,
        response: {
          200: saveToleranceLimitsResponseSchema,
          ...refusals({
            403: 'The role may not set the limits (DM and ADMIN may) (`forbidden`).',
            422: 'An indicator named twice, or a limit not past its warning on the risky side (`monitoring_limits_invalid`).',
          }),
        },
      },
    },
    async (request) => ({
      limits: await saveToleranceLimits(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.body,
      ),
    }),
  );

  app.post(
    '/api/studies/:studyId/monitoring/runs',
    {
      config: { access: { study: 'monitoring.review' } },
      schema: {
        tags,
        summary:
          'Run central monitoring now (in the background; the run answers with its state and progress)',
        params: monitoringParamsSchema,
        response: { 202: requestMonitoringRunResponseSchema, ...refusals({ 403: REVIEWERS }) },
      },
    },
    async (request, reply) => {
      const run = await requestMonitoringRun(db, principalOf(request), request.params.studyId);
      worker?.kick();
      return reply.code(202).send({ run });
    },
  );
}
