import {
  compareSiteDistributions,
  findDuplicateRecords,
  type ItemDefinition,
  KOREAN_PUBLIC_HOLIDAYS,
  median,
  type StudyDefinition,
  seriesOutliers,
  seriesScale,
  terminalDigitPreference,
  weekdayCounts,
  weekdayPattern,
} from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { rounded, type SignalDraft, type SignalSubjectDraft, strengthOfP } from './signal-draft.ts';
import {
  digitPreferenceWords,
  duplicateRecordWords,
  percent,
  seriesOutlierWords,
  siteDistributionWords,
  weekdayPatternWords,
} from './signal-words.ts';

/** Form instances read per batch (keyset on their id): a run never holds one statement over the whole study. */
export const SIGNAL_BATCH_SIZE = 5000;
/** At most this many subjects named by a site-level signal (the queries it can raise). */
const SUBJECTS_PER_SIGNAL = 10;
/**
 * Integer items need at least this many values at a site for the terminal-digit test (30: a site of
 * ten subjects with three measured visits; the chi-square at p < 0.001 still holds its rate there).
 */
const DIGIT_MINIMUM_VALUES = 30;
/** A record is compared with others' only with at least this many numeric values filled. */
const DUPLICATE_MINIMUM_NUMBERS = 3;

const NUMERIC_TYPES = new Set(['integer', 'decimal']);
const CHOICE_TYPES = new Set(['singleChoice', 'multipleChoice', 'checkbox', 'yesNo']);
const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];
const THIS_SITE = { ko: '이 기관', en: 'This site' };
const OTHER_SITES = { ko: '다른 기관', en: 'Other sites' };

interface NumericItem {
  formKey: string;
  item: ItemDefinition;
}

interface SiteInfo {
  id: number;
  code: string;
}

/** One value of a numeric item as read: where it was entered. */
interface NumericValue {
  subjectId: number;
  visitKey: string;
  value: number;
}

/** A number from a stored value (numbers, and numeric text as some imports store it). */
function numberOf(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value)))
    return Number(value);
  return null;
}

/** The top-level (not repeating) items of each form, by type, from the definition: no item key in code. */
function itemsOf(definition: StudyDefinition) {
  const numeric: NumericItem[] = [];
  const compared = new Map<string, Set<string>>();
  for (const form of definition.forms) {
    const keys = new Set<string>();
    for (const section of form.sections) {
      if (section.repeating) continue;
      for (const item of section.items) {
        if (item.derive !== undefined) continue;
        if (NUMERIC_TYPES.has(item.type)) {
          numeric.push({ formKey: form.key, item });
          keys.add(item.key);
        } else if (CHOICE_TYPES.has(item.type)) keys.add(item.key);
      }
    }
    compared.set(form.key, keys);
  }
  return { numeric, compared };
}

/** How many steps `findSignals` reports: its batches and its four analyses. */
export async function signalSteps(db: Kysely<Database>, studyId: number): Promise<number> {
  const row = await sql<{ n: number }>`select count(*)::int as n from form_instances fi
    join subject_facts f on f.subject_id = fi.subject_id where f.study_id = ${studyId} and fi.has_data`.execute(
    db,
  );
  return Math.ceil(Number(row.rows[0]?.n ?? 0) / SIGNAL_BATCH_SIZE) + 4;
}

/**
 * The statistical signals of a study (README "Signals"), run generically from its definition: for
 * every numeric item of every form, each site's distribution against the others', terminal digits per
 * site (integer items), and outliers within each subject's own series in visit order; for every form,
 * identical records across subjects (numeric and choice values); the visit dates' weekdays and
 * holidays per site. Values are read in batches of form instances (keyset on id).
 */
export async function findSignals(
  db: Kysely<Database>,
  studyId: number,
  onStep: () => Promise<void> = async () => undefined,
): Promise<SignalDraft[]> {
  const current = await currentStudyDefinition(db, studyId);
  if (!current) return [];
  const definition = current.definition;
  const sites = await db.selectFrom('sites').select(['id', 'code']).where('study_id', '=', studyId).execute();
  const siteById = new Map<number, SiteInfo>(sites.map((site) => [site.id, site]));
  const { numeric, compared } = itemsOf(definition);
  const numericByForm = new Map<string, NumericItem[]>();
  for (const entry of numeric)
    numericByForm.set(entry.formKey, [...(numericByForm.get(entry.formKey) ?? []), entry]);
  const visitOrder = new Map(definition.visits.map((visit, index) => [visit.key, index]));

  // itemId "form.item" → site → values
  const valuesBySite = new Map<string, Map<number, NumericValue[]>>();
  const records = new Map<string, { id: number; subjectId: number; values: Record<string, unknown> }[]>();
  const subjectInfo = new Map<number, { screeningNumber: string; siteId: number }>();
  const recordVisit = new Map<number, string>();

  // Only the forms and items a method reads: no text, date or photo values travel.
  const analysedForms = [...compared].filter(([, keys]) => keys.size > 0).map(([formKey]) => formKey);
  const analysedKeys = [...new Set([...compared.values()].flatMap((keys) => [...keys]))];
  let after = 0;
  for (;;) {
    if (analysedForms.length === 0) break;
    const instances = await sql<{
      id: number;
      subject_id: number;
      visit_key: string;
      form_key: string;
      site_id: number;
      screening_number: string;
    }>`select fi.id, fi.subject_id, fi.visit_key, fi.form_key, f.site_id, f.screening_number
      from form_instances fi join subject_facts f on f.subject_id = fi.subject_id
      where f.study_id = ${studyId} and fi.has_data and fi.id > ${after}
        and fi.form_key in (${sql.join(analysedForms)})
      order by fi.id limit ${SIGNAL_BATCH_SIZE}`.execute(db);
    if (instances.rows.length === 0) break;
    const from = after;
    after = instances.rows[instances.rows.length - 1]?.id ?? after;
    // The batch's values as one range of the key (form_instance_id, item_key): a range scan, far
    // cheaper than thousands of ids in a list. Values of other forms or studies in the range are read
    // and left (only this batch's instances are looked up).
    const values = await db
      .selectFrom('item_values')
      .select(['form_instance_id', 'item_key', 'value'])
      .where('form_instance_id', '>', from)
      .where('form_instance_id', '<=', after)
      .where('item_key', 'in', analysedKeys)
      .where('derived', '=', false)
      .execute();
    const valuesOf = new Map<number, Record<string, unknown>>();
    for (const row of values) {
      const own = valuesOf.get(row.form_instance_id) ?? {};
      own[row.item_key] = row.value;
      valuesOf.set(row.form_instance_id, own);
    }
    for (const instance of instances.rows) {
      subjectInfo.set(instance.subject_id, {
        screeningNumber: instance.screening_number,
        siteId: instance.site_id,
      });
      const own = valuesOf.get(instance.id) ?? {};
      for (const entry of numericByForm.get(instance.form_key) ?? []) {
        const value = numberOf(own[entry.item.key]);
        if (value === null) continue;
        const itemId = `${entry.formKey}.${entry.item.key}`;
        const bySite = valuesBySite.get(itemId) ?? new Map<number, NumericValue[]>();
        const list = bySite.get(instance.site_id) ?? [];
        list.push({ subjectId: instance.subject_id, visitKey: instance.visit_key, value });
        bySite.set(instance.site_id, list);
        valuesBySite.set(itemId, bySite);
      }
      const keys = compared.get(instance.form_key);
      // Only records with measurements are compared: choice answers alone (criteria met, history
      // absent) coincide by nature.
      const measured = (numericByForm.get(instance.form_key) ?? []).filter(
        (entry) => numberOf(own[entry.item.key]) !== null,
      ).length;
      if (keys && measured >= DUPLICATE_MINIMUM_NUMBERS) {
        const kept: Record<string, unknown> = {};
        for (const key of keys) if (key in own) kept[key] = own[key];
        const list = records.get(instance.form_key) ?? [];
        list.push({ id: instance.id, subjectId: instance.subject_id, values: kept });
        records.set(instance.form_key, list);
        recordVisit.set(instance.id, instance.visit_key);
      }
    }
    await onStep();
  }

  const screeningOf = (subjectId: number) => subjectInfo.get(subjectId)?.screeningNumber ?? String(subjectId);
  const siteCode = (siteId: number) => siteById.get(siteId)?.code ?? String(siteId);
  const signals: SignalDraft[] = [];

  // Site distributions and terminal digits, item by item.
  for (const { formKey, item } of numeric) {
    const itemId = `${formKey}.${item.key}`;
    const bySite = valuesBySite.get(itemId);
    if (!bySite) continue;
    const where = (siteId: number) => ({ site: siteCode(siteId), item: item.label });
    const signalItem = { visitKey: null, formKey, itemKey: item.key, label: item.label };
    const siteValues = [...bySite].map(([siteId, list]) => ({
      siteId,
      values: list.map((entry) => entry.value),
    }));
    const stats = siteValues.map(({ siteId, values }) => ({ siteId, ...meanAndSd(values) }));
    for (const finding of compareSiteDistributions(siteValues)) {
      const list = bySite.get(finding.siteId) ?? [];
      const others = siteValues
        .filter((site) => site.siteId !== finding.siteId)
        .flatMap((site) => site.values);
      const othersCenter = median(others);
      const words = siteDistributionWords(finding.kind, where(finding.siteId), {
        site: finding.siteStatistic,
        others: finding.othersMedian,
        z: finding.z,
        pValue: finding.pValue,
        count: finding.n,
      });
      // The subjects whose values pull the site's statistic: farthest from the others' centre (mean,
      // wide spread), or nearest the site's own mean (too narrow a spread).
      const siteMean = meanAndSd(list.map((entry) => entry.value)).mean;
      const ranked = [...list].sort((a, b) =>
        finding.kind === 'lowVariance'
          ? Math.abs(a.value - siteMean) - Math.abs(b.value - siteMean)
          : finding.kind === 'siteMean'
            ? Math.sign(finding.z) * (b.value - a.value)
            : Math.abs(b.value - othersCenter) - Math.abs(a.value - othersCenter),
      );
      signals.push({
        fingerprint: `${finding.kind}:${finding.siteId}:${itemId}`,
        kind: finding.kind,
        siteId: finding.siteId,
        strength: strengthOfP(finding.pValue),
        ...words,
        items: [signalItem],
        subjects: distinctSubjects(ranked, screeningOf),
        numbers: {
          z: rounded(finding.z),
          pValue: finding.pValue,
          n: finding.n,
          siteStatistic: rounded(finding.siteStatistic),
          othersMedian: rounded(finding.othersMedian),
        },
        chart: {
          kind: 'bars',
          labels: stats.map((site) => siteCode(site.siteId)),
          series: [
            {
              name:
                finding.kind === 'siteMean'
                  ? { ko: '평균', en: 'Mean' }
                  : { ko: '표준편차', en: 'Standard deviation' },
              values: stats.map((site) => rounded(finding.kind === 'siteMean' ? site.mean : site.sd)),
            },
          ],
        },
      });
    }
    if (item.type !== 'integer') continue;
    // Every site's units digits counted once: the others' are the study's less the site's.
    const allDigits = Array.from({ length: 10 }, () => 0);
    let allCount = 0;
    for (const list of bySite.values())
      for (const entry of list) {
        const digit = Math.abs(Math.round(entry.value)) % 10;
        allDigits[digit] = (allDigits[digit] ?? 0) + 1;
        allCount += 1;
      }
    for (const [siteId, list] of bySite) {
      if (list.length < DIGIT_MINIMUM_VALUES) continue;
      const test = terminalDigitPreference(
        list.map((entry) => entry.value),
        { minimumValues: DIGIT_MINIMUM_VALUES },
      );
      if (!test) continue;
      const othersN = allCount - test.n;
      const others = {
        n: othersN,
        counts: allDigits.map((count, digit) => count - (test.counts[digit] ?? 0)),
      };
      const preferred = new Set(test.preferredDigits);
      const onPreferred = list.filter((entry) => preferred.has(Math.abs(Math.round(entry.value)) % 10));
      const preferredCount = test.preferredDigits.reduce((sum, digit) => sum + (test.counts[digit] ?? 0), 0);
      signals.push({
        fingerprint: `digitPreference:${siteId}:${itemId}`,
        kind: 'digitPreference',
        siteId,
        strength: strengthOfP(test.pValue),
        ...digitPreferenceWords(where(siteId), {
          count: test.n,
          chiSquare: test.chiSquare,
          pValue: test.pValue,
          preferred: test.preferredDigits,
          preferredShare: percent(preferredCount, test.n),
        }),
        items: [signalItem],
        subjects: distinctSubjects(onPreferred, screeningOf),
        numbers: {
          chiSquare: rounded(test.chiSquare),
          degreesOfFreedom: test.degreesOfFreedom,
          pValue: test.pValue,
          n: test.n,
          othersN: others.n,
        },
        chart: {
          kind: 'bars',
          labels: test.counts.map((_, digit) => String(digit)),
          series: [
            { name: THIS_SITE, values: test.counts.map((count) => rounded((count * 100) / test.n, 1)) },
            {
              name: OTHER_SITES,
              values: test.counts.map((_, digit) =>
                others.n > 0 ? rounded(((others.counts[digit] ?? 0) * 100) / others.n, 1) : null,
              ),
            },
          ],
        },
      });
    }
  }
  await onStep();

  // Outliers within each subject's own series of an item, in visit order (scheduled visits).
  for (const { formKey, item } of numeric) {
    const itemId = `${formKey}.${item.key}`;
    const bySubject = new Map<number, NumericValue[]>();
    for (const list of valuesBySite.get(itemId)?.values() ?? [])
      for (const entry of list) {
        if (!visitOrder.has(entry.visitKey)) continue;
        const own = bySubject.get(entry.subjectId);
        if (own) own.push(entry);
        else bySubject.set(entry.subjectId, [entry]);
      }
    const seriesOfSubject = new Map<number, NumericValue[]>();
    for (const [subjectId, entries] of bySubject)
      seriesOfSubject.set(
        subjectId,
        entries.sort((a, b) => (visitOrder.get(a.visitKey) ?? 0) - (visitOrder.get(b.visitKey) ?? 0)),
      );
    // The item's usual visit-to-visit variation over every subject: a few points of one subject
    // estimate their own spread badly (packages/study central-monitoring README).
    const scaleFloor = seriesScale(
      [...seriesOfSubject.values()].map((series) => series.map((entry) => entry.value)),
    );
    for (const [subjectId, series] of seriesOfSubject) {
      if (series.length < 4) continue;
      for (const outlier of seriesOutliers(
        series.map((entry) => entry.value),
        { scaleFloor },
      )) {
        const at = series[outlier.index];
        if (!at) continue;
        const siteId = subjectInfo.get(subjectId)?.siteId ?? 0;
        const visit = definition.visits.find((candidate) => candidate.key === at.visitKey);
        signals.push({
          fingerprint: `seriesOutlier:${siteId}:${itemId}:${subjectId}:${at.visitKey}`,
          kind: 'seriesOutlier',
          siteId,
          strength: Math.min(1, Math.abs(outlier.z) / 20),
          ...seriesOutlierWords(
            {
              subject: screeningOf(subjectId),
              item: item.label,
              visit: visit?.label ?? { ko: at.visitKey, en: at.visitKey },
            },
            { value: outlier.value, expected: outlier.expected, z: outlier.z },
          ),
          items: [{ visitKey: at.visitKey, formKey, itemKey: item.key, label: item.label }],
          subjects: [{ subjectId, screeningNumber: screeningOf(subjectId), visitKey: at.visitKey }],
          numbers: {
            value: outlier.value,
            expected: rounded(outlier.expected),
            z: rounded(outlier.z),
            n: series.length,
          },
          chart: {
            kind: 'series',
            labels: series.map((entry) => entry.visitKey),
            series: [{ name: item.label, values: series.map((entry) => entry.value) }],
          },
        });
      }
    }
  }
  await onStep();

  // Identical records of a form across subjects.
  for (const form of definition.forms) {
    const list = records.get(form.key);
    if (!list) continue;
    const byId = new Map(list.map((record) => [record.id, record]));
    for (const group of findDuplicateRecords(list)) {
      const firstSubject = group.subjectIds[0] ?? 0;
      const siteId = subjectInfo.get(firstSubject)?.siteId ?? 0;
      const visitOfSubject = new Map<number, string>();
      for (const recordId of group.recordIds) {
        const record = byId.get(recordId);
        if (record && !visitOfSubject.has(record.subjectId))
          visitOfSubject.set(record.subjectId, recordVisit.get(recordId) ?? '');
      }
      const subjects = group.subjectIds.slice(0, SUBJECTS_PER_SIGNAL).map((subjectId) => ({
        subjectId,
        screeningNumber: screeningOf(subjectId),
        visitKey: visitOfSubject.get(subjectId) ?? null,
      }));
      signals.push({
        // The shared values name the group (a hash): the same copy found again is the same signal.
        fingerprint: `duplicateRecord:${form.key}:${group.fingerprint}`,
        kind: 'duplicateRecord',
        siteId,
        strength: Math.min(1, 0.5 + group.filledValues / 20),
        ...duplicateRecordWords(form.label, {
          subjects: subjects.map((subject) => subject.screeningNumber),
          total: group.subjectIds.length,
          filledValues: group.filledValues,
        }),
        // The whole form: one query per subject on the record.
        items: [{ visitKey: null, formKey: form.key, itemKey: '', label: form.label }],
        subjects,
        numbers: {
          records: group.recordIds.length,
          subjects: group.subjectIds.length,
          filledValues: group.filledValues,
        },
        chart: {
          kind: 'bars',
          labels: subjects.map((subject) => subject.screeningNumber),
          series: [
            {
              name: { ko: '같은 값', en: 'Identical values' },
              values: subjects.map(() => group.filledValues),
            },
          ],
        },
      });
    }
  }
  await onStep();

  // Visit dates on weekends and public holidays, per site.
  if (definition.visitDate) {
    const visits = await sql<{ site_id: number; subject_id: number; visit_key: string; date: string }>`
      select f.site_id, v.subject_id, v.visit_key, v.visit_date::text as date
      from subject_visits v join subject_facts f on f.subject_id = v.subject_id
      where f.study_id = ${studyId} and v.visit_date is not null`.execute(db);
    const dated = visits.rows.map((row) => ({ siteId: row.site_id, date: row.date }));
    const visitDate = definition.visitDate;
    const dateItem = definition.forms
      .find((form) => form.key === visitDate.form)
      ?.sections.flatMap((section) => section.items)
      .find((item) => item.key === visitDate.item);
    for (const finding of weekdayPattern(dated, { holidays: KOREAN_PUBLIC_HOLIDAYS })) {
      const othersCounts = weekdayCounts(
        dated.filter((visit) => visit.siteId !== finding.siteId).map((visit) => visit.date),
      );
      const othersTotal = othersCounts.reduce((sum, count) => sum + count, 0);
      const offDay = visits.rows.filter((row) => row.site_id === finding.siteId && isOffDay(row.date));
      signals.push({
        fingerprint: `weekdayPattern:${finding.siteId}`,
        kind: 'weekdayPattern',
        siteId: finding.siteId,
        strength: strengthOfP(finding.pValue),
        ...weekdayPatternWords(siteCode(finding.siteId), {
          offDays: finding.offDays,
          count: finding.n,
          share: finding.offDayShare,
          othersShare: finding.othersOffDayShare,
          pValue: finding.pValue,
        }),
        items: [
          {
            visitKey: null,
            formKey: visitDate.form,
            itemKey: visitDate.item,
            label: dateItem?.label ?? { ko: visitDate.item, en: visitDate.item },
          },
        ],
        subjects: distinctSubjects(
          offDay.map((row) => ({ subjectId: row.subject_id, visitKey: row.visit_key })),
          screeningOf,
        ),
        numbers: {
          n: finding.n,
          offDays: finding.offDays,
          offDayShare: rounded(finding.offDayShare),
          othersOffDayShare: rounded(finding.othersOffDayShare),
          z: rounded(finding.z),
          pValue: finding.pValue,
        },
        chart: {
          kind: 'bars',
          labels: WEEKDAYS,
          series: [
            {
              name: THIS_SITE,
              values: finding.counts.map((count) => rounded((count * 100) / Math.max(1, finding.n), 1)),
            },
            {
              name: OTHER_SITES,
              values: othersCounts.map((count) => rounded((count * 100) / Math.max(1, othersTotal), 1)),
            },
          ],
        },
      });
    }
  }
  await onStep();
  return signals;
}

function isOffDay(date: string): boolean {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 || day === 6 || KOREAN_PUBLIC_HOLIDAYS.has(date);
}

/** The first subjects of a ranked list, each once, with the visit of their first entry. */
function distinctSubjects(
  ranked: readonly { subjectId: number; visitKey: string }[],
  screeningOf: (subjectId: number) => string,
): SignalSubjectDraft[] {
  const seen = new Map<number, SignalSubjectDraft>();
  for (const entry of ranked) {
    if (seen.size >= SUBJECTS_PER_SIGNAL) break;
    if (seen.has(entry.subjectId)) continue;
    seen.set(entry.subjectId, {
      subjectId: entry.subjectId,
      screeningNumber: screeningOf(entry.subjectId),
      visitKey: entry.visitKey,
    });
  }
  return [...seen.values()];
}

function meanAndSd(values: readonly number[]): { mean: number; sd: number } {
  if (values.length === 0) return { mean: 0, sd: 0 };
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance =
    values.length > 1 ? values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1) : 0;
  return { mean, sd: Math.sqrt(variance) };
}
