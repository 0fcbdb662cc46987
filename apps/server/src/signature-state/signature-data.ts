import { createHash } from 'node:crypto';
import {
  refuseUnderHolds,
  type SignatureRecord,
  type SignatureResponse,
  type SignatureState,
} from '@cdms/contract';
import { getFormLayout, isSigningForm, type StudyDefinition, type SubjectData } from '@cdms/study';
import { type Kysely, type Selectable, sql, type Transaction } from 'kysely';
import { can } from '../auth/permissions.ts';
import type { Principal } from '../auth/principal.ts';
import { canonicalJson } from '../db/audit-record.ts';
import type { Database, SignaturesTable } from '../db/schema.ts';
import { holdsOver, subjectTarget } from '../locks/holds-in-force.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';

type Executor = Kysely<Database> | Transaction<Database>;
type SignatureRow = Selectable<SignaturesTable>;

/**
 * What a signature means when the study definition does not say it (the signing section's help
 * text says it in the first study).
 */
const DEFAULT_MEANING = {
  ko: '본인은 이 대상자의 증례기록서에 기록된 모든 자료를 검토하였으며, 그 내용이 정확하고 완전함을 확인합니다.',
  en: "I have reviewed all data recorded in this subject's case report form and confirm that they are accurate and complete.",
};

/** The meaning shown with the signature: the signing form's own statement from the definition. */
export function signingMeaning(definition: StudyDefinition): { ko: string; en: string } {
  const signing = definition.roles?.signing;
  const layout = signing ? getFormLayout(definition, signing.visit, signing.form) : undefined;
  const help = layout?.sections.find((section) => section.help)?.help;
  return help ? { ko: help.ko, en: help.en } : DEFAULT_MEANING;
}

/**
 * SHA-256 over the canonical JSON of what is signed: the subject's screening number and every
 * value entered on its forms except the signing form itself (the `signing` role: it records the
 * signature, it is not part of what is signed). Keys are sorted at every depth, so the same data
 * always give the same hash.
 */
export function signedDataHash(
  definition: StudyDefinition,
  screeningNumber: string,
  entered: SubjectData,
): string {
  const data: Record<string, unknown> = {};
  for (const [visitKey, forms] of Object.entries(entered)) {
    const kept = Object.fromEntries(
      Object.entries(forms ?? {}).filter(
        ([formKey, values]) =>
          !isSigningForm(definition, visitKey, formKey) && Object.keys(values ?? {}).length > 0,
      ),
    );
    if (Object.keys(kept).length > 0) data[visitKey] = kept;
  }
  return createHash('sha256')
    .update(canonicalJson({ subject: screeningNumber, data }))
    .digest('hex');
}

function meaningOf(value: unknown): { ko: string; en: string } {
  const meaning = (typeof value === 'string' ? JSON.parse(value) : value) as { ko?: unknown; en?: unknown };
  return { ko: String(meaning?.ko ?? ''), en: String(meaning?.en ?? '') };
}

function presentSignature(row: SignatureRow): SignatureRecord {
  return {
    id: row.id,
    printedName: row.printed_name,
    role: row.signer_role,
    signedAt: row.signed_at.toISOString(),
    meaning: meaningOf(row.meaning),
    dataHash: row.data_hash,
    invalidatedAt: row.invalidated_at ? row.invalidated_at.toISOString() : null,
    invalidatedReason: row.invalidated_reason,
  };
}

function stateOf(newest: SignatureRow | undefined): SignatureState {
  if (!newest) return 'none';
  return newest.invalidated_at === null ? 'signed' : 'invalidated';
}

/** The subject's signatures, newest first, its state, and whether this user may sign now. */
export async function subjectSignature(
  db: Executor,
  principal: Principal,
  subject: SubjectWithSite,
): Promise<SignatureResponse> {
  const rows = await db
    .selectFrom('signatures')
    .selectAll()
    .where('subject_id', '=', subject.id)
    .orderBy('signed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const state = stateOf(rows[0]);
  const current = await currentStudyDefinition(db, subject.study_id);
  const signing = current?.definition.roles?.signing;
  const signingForm = signing ? { visitKey: signing.visit, formKey: signing.form } : undefined;
  return {
    state,
    current: rows[0] ? presentSignature(rows[0]) : null,
    history: rows.map(presentSignature),
    // As `signCasebook` decides: the role at the site, and no lock over the subject, its site or the
    // study or the signing form (a freeze lets the investigator sign: lock-rules.ts).
    canSign:
      state !== 'signed' &&
      can(principal, 'casebook.sign', { studyId: subject.study_id, siteId: subject.site_id }) &&
      refuseUnderHolds('casebook.sign', await holdsOver(db, subjectTarget(subject, signingForm))) === null,
    meaning: current ? signingMeaning(current.definition) : DEFAULT_MEANING,
  };
}

/**
 * The signature state of the subject row `subjects` of the outer statement (the list's
 * initial-signature column: signed is "done", none and invalidated are "pending"): 'none' without
 * any signature, 'signed' with one not invalidated, 'invalidated' otherwise. A column of the
 * caller's statement, so the read model's refresh pays no round trip for it.
 */
export const signatureStateSql = sql<SignatureState>`(select case
    when count(*) = 0 then 'none'
    when count(*) filter (where sig.invalidated_at is null) > 0 then 'signed'
    else 'invalidated' end
  from signatures sig where sig.subject_id = subjects.id)`;

/** The signature state of each subject (`signatureStateSql`); subjects not found are 'none'. */
export async function signatureStatesOf(
  db: Executor,
  subjectIds: readonly number[],
): Promise<Map<number, SignatureState>> {
  const states = new Map<number, SignatureState>(subjectIds.map((id) => [id, 'none']));
  if (subjectIds.length === 0) return states;
  const rows = await db
    .selectFrom('subjects')
    .select(['subjects.id', signatureStateSql.as('state')])
    .where('subjects.id', 'in', [...new Set(subjectIds)])
    .execute();
  for (const row of rows) states.set(row.id, row.state);
  return states;
}
