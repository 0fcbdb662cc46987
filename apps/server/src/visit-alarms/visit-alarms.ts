import {
  todayInKorea,
  type VisitAlarm,
  type VisitAlarmCounts,
  type VisitAlarmListResponse,
  type visitAlarmQuerySchema,
} from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { z } from 'zod';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { SubjectFacts } from '../subjects/subject-facts.ts';
import {
  classifyVisit,
  compareAlarms,
  DEFAULT_DUE_SOON_DAYS,
  dueSoonDaysOf,
  emptyAlarmCounts,
} from './classify-visit-alarms.ts';
import { loadReadableSubjects, narrowToSite, readerScope } from './reader-scope.ts';

/** Every alarm the subjects' visits raise as of `today`, in list order. */
export function visitAlarmsOf(
  subjects: readonly SubjectFacts[],
  definition: StudyDefinition,
  today: string,
): VisitAlarm[] {
  const dueSoonDays = dueSoonDaysOf(definition);
  const labels = new Map(definition.visits.map((visit) => [visit.key, visit.label]));
  const alarms: VisitAlarm[] = [];
  for (const subject of subjects) {
    for (const entry of subject.schedule) {
      const alarm = classifyVisit(entry, subject.status, today, dueSoonDays);
      if (!alarm || entry.expectedDate === null || entry.earliestDate === null || entry.latestDate === null)
        continue;
      const label = labels.get(entry.visitKey) ?? { ko: entry.visitKey, en: entry.visitKey };
      alarms.push({
        subject: {
          id: subject.id,
          subjectId: subject.screeningNumber,
          registrationNumber: subject.randomizationNumber,
          siteId: subject.siteId,
          siteCode: subject.siteCode,
          siteName: subject.siteName,
          status: subject.status,
        },
        visitKey: entry.visitKey,
        visitLabel: { ko: label.ko, en: label.en },
        expectedDate: entry.expectedDate,
        earliestDate: entry.earliestDate,
        latestDate: entry.latestDate,
        actualDate: entry.actualDate,
        ...alarm,
      });
    }
  }
  // Array.sort is stable: within equal urgency, subjects stay by screening number and visits in order.
  return alarms.sort(compareAlarms);
}

export function countAlarms(alarms: readonly VisitAlarm[]): VisitAlarmCounts {
  const counts = emptyAlarmCounts();
  for (const alarm of alarms) counts[alarm.state] += 1;
  return counts;
}

/** `GET /api/studies/:studyId/visit-alarms`: one page of alarms in the reader's sites, and the counts. */
export async function listVisitAlarms(
  db: Kysely<Database>,
  principal: Principal,
  studyId: number,
  query: z.output<typeof visitAlarmQuerySchema>,
): Promise<VisitAlarmListResponse> {
  const reader = await readerScope(db, principal, studyId);
  const sites = narrowToSite(reader, query.site);
  const today = todayInKorea();
  const subjects = await loadReadableSubjects(db, reader, sites, today);
  const alarms = reader.definition ? visitAlarmsOf(subjects, reader.definition, today) : [];
  const matching = query.state ? alarms.filter((alarm) => alarm.state === query.state) : alarms;
  const start = (query.page - 1) * query.size;
  return {
    alarms: matching.slice(start, start + query.size),
    counts: countAlarms(alarms),
    total: matching.length,
    page: query.page,
    size: query.size,
    today,
    dueSoonDays: reader.definition ? dueSoonDaysOf(reader.definition) : DEFAULT_DUE_SOON_DAYS,
    sites: reader.sites,
  };
}
