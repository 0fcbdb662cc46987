import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 17 item 5: the study summary's healing outcome and PTA averages per visit, kept with the
  // visit's other facts. Read from the item values per request, the three clinical read-outs took
  // 60–150 ms each at 5,000 subjects, and more when the planner misjudged the JSON filters; from here
  // they are a GROUP BY over ~6 rows per subject. (READ_MODEL_VERSION 6 fills them at the next start.)
  await db.schema
    .alterTable('subject_visits')
    // The tympanic photo evaluation's answer (a code of the healing list) when saved at this visit.
    .addColumn('healing_outcome', 'text')
    // The PTA form's derived air and bone conduction averages (dB) when saved at this visit.
    .addColumn('pta_air_average', 'double precision')
    .addColumn('pta_bone_average', 'double precision')
    .execute();
}
