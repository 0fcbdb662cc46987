import type { SummaryResponse } from '@cdms/contract';
import type { Kysely } from 'kysely';
import { can } from '../auth/permissions.ts';
import { type Principal, studyRandomizes } from '../auth/principal.ts';
import { groupVisibleRolesOf, mayKnowAllGroups } from '../blinding/may-know-group.ts';
import type { Database } from '../db/schema.ts';
import { emptyStatusCounts } from '../read-model/dashboard-figures.ts';
import { reportContext } from '../reports/report-context.ts';
import { itemAt, measureChangeOf, measureVisitsOf, visitsCollecting } from '../studies/definition-items.ts';
import { visitLabelOf } from '../studies/definition-labels.ts';
import { countHealingOutcomes } from './count-healing-outcomes.ts';
import { countSubjectStatuses } from './count-subject-statuses.ts';
import { countVisitCompletion, noCompletion } from './count-visit-completion.ts';
import { summarizeKeyMeasures } from './summarize-key-measures.ts';
import { codesOf, measuresOf, randomizationGroupsOf } from './summary-sources.ts';

/**
 * The study summary (issue 17 item 2) over the reader's sites, narrowed to one when asked: the
 * reports' policy (members, `report.read`, other sites 404), four read-outs each counted in SQL, and
 * the split by randomization group only for a reader holding `summary.by_group` (data management;
 * not whoever may see a subject's group) — for anyone else the queries do not read the allocation list
 * and the answer has no group field.
 */
export async function readStudySummary(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  siteId: number | undefined,
): Promise<SummaryResponse> {
  const context = await reportContext(db, principal, studyId, siteId);
  const definition = context.definition;
  // Not `mayKnowGroup` (a subject's assigned group, which the study may show to its sites): comparing
  // outcomes by arm is a permission of its own (permissions.ts `summary.by_group`).
  // A study without randomization has no arms to split by (its DM gets the plain summary too).
  // (Nor one created with randomization off: its membership's design roles leave randomization out.)
  const randomizes = studyRandomizes(principal, studyId);
  // And results by arm only for a reader who may know groups at all (blinding: the study's roles
  // that see groups, or the unblinded desk) — a blinded data manager gets the plain summary.
  const groups =
    definition &&
    randomizes &&
    can(principal, 'summary.by_group', { studyId }) &&
    mayKnowAllGroups(principal, studyId, await groupVisibleRolesOf(db, studyId))
      ? randomizationGroupsOf(definition)
      : [];
  const byGroup = groups.length > 0;
  const sites =
    context.siteIds.length === 0
      ? []
      : await db
          .selectFrom('sites')
          .select(['id', 'code', 'name'])
          .where('id', 'in', context.siteIds)
          .orderBy('institution_number')
          .execute();
  const empty: SummaryResponse = {
    sites: sites.map((site) => ({ siteId: site.id, siteCode: site.code, siteName: site.name })),
    ...(byGroup ? { groups } : {}),
    statusBySite: [],
    visitMatrix: [],
    healing: { outcomes: [], visits: [] },
    keyMeasures: { measures: [], visits: [], change: null },
  };
  if (!definition || sites.length === 0) return empty;

  const scheduled = definition.visits.filter((visit) => visit.window).map((visit) => visit.key);
  // The clinical figures are the study's roles: a study without one shows no visits for it.
  const { healing: healingRole, keyMeasures: measuresRole } = definition.roles ?? {};
  const healingVisits = healingRole
    ? visitsCollecting(definition, healingRole.form, healingRole.outcome)
    : [];
  const outcomeItem =
    healingRole && healingVisits[0]
      ? itemAt(definition, healingRole.form, healingVisits[0], healingRole.outcome)
      : undefined;
  const outcomes = outcomeItem?.codeList ? codesOf(definition, outcomeItem.codeList) : [];
  // The visits collecting any of the measures; each measure labelled as its item at its first visit.
  const measureKeys = measuresRole?.items ?? [];
  const collecting = new Map(
    measureKeys.map((itemKey) => [
      itemKey,
      measuresRole ? visitsCollecting(definition, measuresRole.form, itemKey) : [],
    ]),
  );
  const measureVisits = measuresRole ? measureVisitsOf(definition, measuresRole) : [];
  const measures = measuresRole ? measuresOf(definition, measuresRole.form, collecting) : [];
  const change = measuresRole ? measureChangeOf(definition, measuresRole) : null;

  const [statuses, completion, healing, measured] = await Promise.all([
    countSubjectStatuses(db, context),
    countVisitCompletion(db, context),
    countHealingOutcomes(db, context, healingVisits, byGroup),
    summarizeKeyMeasures(db, context, measureVisits, change, byGroup),
  ]);

  const visitRef = (visitKey: string) => ({ visitKey, visitLabel: visitLabelOf(definition, visitKey) });
  const outcomeCounts = (visitKey: string, group: string | null) =>
    Object.fromEntries(
      outcomes.map(({ code }) => [
        code,
        healing.find((row) => row.visitKey === visitKey && row.group === group && row.outcome === code)
          ?.count ?? 0,
      ]),
    );
  const statsOf = (visitKey: string, group: string | null) =>
    measureKeys.map((measure) => {
      const line = measured.stats.find(
        (row) => row.visitKey === visitKey && row.group === group && row.measure === measure,
      );
      return { measure, n: line?.n ?? 0, mean: line?.mean ?? null, median: line?.median ?? null };
    });
  const changesOf = (group: string | null) =>
    measureKeys.map((measure) => {
      const line = measured.changes.find((row) => row.group === group && row.measure === measure);
      return {
        measure,
        n: line?.n ?? 0,
        meanFrom: line?.meanFrom ?? null,
        meanTo: line?.meanTo ?? null,
        meanChange: line?.meanChange ?? null,
      };
    });

  return {
    ...empty,
    statusBySite: sites.map((site) => ({
      siteId: site.id,
      counts: statuses.get(site.id) ?? emptyStatusCounts(),
    })),
    visitMatrix: scheduled.map((visitKey) => ({
      ...visitRef(visitKey),
      cells: sites.map((site) => ({
        siteId: site.id,
        counts: completion.get(`${visitKey}|${site.id}`) ?? noCompletion(),
      })),
    })),
    healing: {
      outcomes,
      visits: healingVisits.map((visitKey) => ({
        ...visitRef(visitKey),
        counts: outcomeCounts(visitKey, null),
        ...(byGroup
          ? { byGroup: groups.map(({ code }) => ({ group: code, counts: outcomeCounts(visitKey, code) })) }
          : {}),
      })),
    },
    keyMeasures: {
      measures,
      visits: measureVisits.map((visitKey) => ({
        ...visitRef(visitKey),
        stats: statsOf(visitKey, null),
        ...(byGroup
          ? { byGroup: groups.map(({ code }) => ({ group: code, stats: statsOf(visitKey, code) })) }
          : {}),
      })),
      change: change
        ? {
            fromVisit: visitRef(change.fromVisit),
            toVisit: visitRef(change.toVisit),
            overall: changesOf(null),
            ...(byGroup
              ? { byGroup: groups.map(({ code }) => ({ group: code, changes: changesOf(code) })) }
              : {}),
          }
        : null,
    },
  };
}
