import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Database } from '../../apps/server/src/db/schema.ts';
import { coordinatorEmail } from './build-study/bench-study.ts';

/** The form every read and save scenario opens: V1 vital signs, entered for nearly every subject. */
export const BENCH_FORM = { visitKey: 'v1', formKey: 'vitalSigns' } as const;

export interface SaverSubject {
  subjectId: number;
  /** The coordinator of the subject's site, who saves. */
  email: string;
}

/** What the scenarios need to know about the built study, read before the server starts. */
export interface Workload {
  studyId: number;
  subjects: number;
  /** Subjects with the bench form saved, spread over the sites, for overview and form reads. */
  readSubjects: number[];
  /** Distinct subjects for the savers: Ongoing first, one site after another, so savers never share one. */
  saverSubjects: SaverSubject[];
}

export async function loadWorkload(db: Kysely<Database>): Promise<Workload> {
  const study = await db
    .selectFrom('studies')
    .select('id')
    .where('code', '=', 'TMP-2026')
    .executeTakeFirstOrThrow();
  const rows = await sql<{ id: number; institution_number: string; status: string }>`
    select s.id, site.institution_number, s.status
    from subjects s
    join sites site on site.id = s.site_id
    join form_instances f on f.subject_id = s.id and f.visit_key = ${BENCH_FORM.visitKey} and f.form_key = ${BENCH_FORM.formKey}
    where s.study_id = ${study.id}::int and s.deleted_at is null
    order by s.id`.execute(db);
  const total = await db
    .selectFrom('subjects')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('study_id', '=', study.id)
    .executeTakeFirstOrThrow();
  // Round-robin over the sites (each site's Ongoing subjects first), so that 8 or 32 savers work at
  // different sites as far as there are sites, and never on the same subject.
  const bySite = new Map<string, typeof rows.rows>();
  for (const row of rows.rows) {
    const list = bySite.get(row.institution_number) ?? [];
    list.push(row);
    bySite.set(row.institution_number, list);
  }
  for (const list of bySite.values())
    list.sort((a, b) => Number(b.status === 'ongoing') - Number(a.status === 'ongoing'));
  const saverSubjects: SaverSubject[] = [];
  const queues = [...bySite.entries()].sort(([a], [b]) => a.localeCompare(b));
  for (let round = 0; saverSubjects.length < rows.rows.length; round += 1) {
    for (const [institutionNumber, list] of queues) {
      const row = list[round];
      if (row) saverSubjects.push({ subjectId: row.id, email: coordinatorEmail(institutionNumber) });
    }
  }
  return {
    studyId: study.id,
    subjects: Number(total.count),
    readSubjects: rows.rows.map((row) => row.id),
    saverSubjects,
  };
}
