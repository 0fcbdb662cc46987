import {
  type FormDataResponse,
  type FormSdv,
  type Hold,
  type HoldInForce,
  type HoldMark,
  type OverviewResponse,
  refuseUnderHolds,
  type SdvFormState,
  strongestHold,
} from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { type Kysely, sql } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { formStateOf } from '../sdv-state/form-sdv.ts';
import { loadSdvPlan } from '../sdv-state/sdv-plan.ts';
import { sdvKeySets } from '../sdv-state/sdv-rules.ts';
import { sdvCtes } from '../sdv-state/sdv-sql.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';
import { holdsOverSubject } from './hold-presenter.ts';
import { holdAbilitiesAt } from './list-holds.ts';

/**
 * What the form screen and the overview learn about freezes, locks and SDV (issue 15), added to the
 * responses subjects/form-queries.ts builds: the holds in force, the SDV marks against the plan, and
 * abilities that say no where the server would refuse (a frozen form cannot be edited, a locked one
 * takes no query and no SDV, a frozen or locked subject takes no unscheduled visit).
 */

/** The holds of `holds` that cover one form: all but other forms' own. */
function coveringForm(holds: HoldInForce[], visitKey: string, formKey: string): HoldInForce[] {
  return holds.filter(
    (hold) => hold.level !== 'form' || (hold.visitKey === visitKey && hold.formKey === formKey),
  );
}

function asHold(hold: HoldInForce): Hold {
  return { kind: hold.kind, level: hold.level };
}

function markOf(holds: HoldInForce[]): HoldMark {
  return strongestHold(holds.map(asHold));
}

type FormDataBase = Omit<FormDataResponse, 'holds' | 'sdv' | 'abilities'> & {
  abilities: Pick<FormDataResponse['abilities'], 'edit' | 'randomize' | 'openQuery'>;
};

export function withFormHoldsAndSdv(
  principal: Principal,
  subject: SubjectWithSite,
  base: FormDataBase,
  /** The holds in force over the subject and the form's SDV, read with the form's answer (subjects/form-queries.ts). */
  read: { holds: HoldInForce[]; sdv: FormSdv },
): FormDataResponse {
  const { visitKey, formKey } = base;
  const holds = coveringForm(read.holds, visitKey, formKey);
  const inForce = holds.map(asHold);
  const allows = (write: Parameters<typeof refuseUnderHolds>[0]) => refuseUnderHolds(write, inForce) === null;
  const scope = { studyId: subject.study_id, siteId: subject.site_id };
  const hold = holdAbilitiesAt(principal, subject.study_id, subject.site_id);
  return {
    ...base,
    holds,
    sdv: read.sdv,
    abilities: {
      edit: base.abilities.edit && allows('form.save'),
      randomize: base.abilities.randomize && allows('subject.randomize'),
      openQuery: base.abilities.openQuery && allows('query.open'),
      verify: can(principal, 'sdv.mark', scope) && allows('sdv.mark'),
      freeze: hold.freeze,
      lock: hold.lock,
    },
  };
}

type OverviewBase = Omit<OverviewResponse, 'marks' | 'holds' | 'holdAbilities' | 'blinding'>;

export async function withOverviewMarks(
  db: Kysely<Database>,
  principal: Principal,
  subject: SubjectWithSite,
  definition: StudyDefinition,
  base: OverviewBase,
): Promise<Omit<OverviewResponse, 'blinding'>> {
  const holds = await holdsOverSubject(db, subject);
  const plan = await loadSdvPlan(db, subject.study_id);
  const rows = await sql<{ visit_key: string; form_key: string; planned: number; verified: number }>`
    with ${sdvCtes({ studyId: subject.study_id, plan, keys: sdvKeySets(definition), sites: 'all', subjectId: subject.id })}
    select visit_key, form_key, planned, verified from form_sdv`.execute(db);
  const sdvOf = new Map<string, SdvFormState>(
    rows.rows.map((row) => [`${row.visit_key}.${row.form_key}`, formStateOf(row.planned, row.verified)]),
  );
  const marks: OverviewResponse['marks'] = {};
  for (const [visitKey, forms] of Object.entries(base.matrix)) {
    const row: OverviewResponse['marks'][string] = {};
    for (const formKey of Object.keys(forms)) {
      row[formKey] = {
        sdv: sdvOf.get(`${visitKey}.${formKey}`) ?? 'notRequired',
        hold: markOf(coveringForm(holds, visitKey, formKey)),
      };
    }
    marks[visitKey] = row;
  }
  // Adding or deleting an unscheduled visit is a data change over the whole subject: the commands refuse
  // it as they refuse a save under a freeze or lock of the subject, its site or the study (a form's own
  // hold covers that form only), so the overview offers it only where no such hold stands.
  const overSubject = holds.filter((hold) => hold.level !== 'form').map(asHold);
  const visitsWritable = refuseUnderHolds('form.save', overSubject) === null;
  return {
    ...base,
    unscheduledVisitAbilities: {
      add: base.unscheduledVisitAbilities.add && visitsWritable,
      delete: base.unscheduledVisitAbilities.delete && visitsWritable,
    },
    marks,
    holds,
    holdAbilities: holdAbilitiesAt(principal, subject.study_id, subject.site_id),
  };
}
