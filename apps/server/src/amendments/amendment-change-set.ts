import type { AmendmentChangeSet, AmendmentRefusal } from '@cdms/contract';
import {
  amendmentChangeSet,
  amendmentDeclarationsSchema,
  type AmendmentChangeSet as ComputedChangeSet,
  describeChangeSet,
  type StudyDefinition,
  studyDefinitionSchema,
} from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import { fill } from '../casebook/casebook-text.ts';
import type { Database } from '../db/schema.ts';
import type { Language } from '../http/language.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import type { AmendmentRow } from './amendment-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A draft amendment against the live version: both definitions, the declarations and what they give. */
export interface DraftAmendmentState {
  draftRevision: number | null;
  /** The draft's version, when it reads as a definition at all. */
  draftVersion: string | null;
  /** Problems of the draft as a definition (the designer lists them); the change set waits for none. */
  definitionProblems: number;
  live: { version: string; definition: StudyDefinition } | null;
  next: StudyDefinition | null;
  computed: ComputedChangeSet | null;
  /** What the server refuses beyond the change set: a version the study has already, another study's key. */
  studyRefusals: Array<{ code: 'versionNotNew' | 'definitionKeyChanged'; values: Record<string, string> }>;
}

/** What a draft amendment would publish, computed from the design draft as it is saved now. */
export async function draftAmendmentState(
  executor: Executor,
  studyId: number,
  amendment: AmendmentRow,
): Promise<DraftAmendmentState> {
  const draft = await designDraftRow(executor, studyId);
  const live = (await currentStudyDefinition(executor, studyId)) ?? null;
  const draftVersion = draftVersionOf(draft?.definition);
  const empty = { draftRevision: draft?.revision ?? null, draftVersion, live, studyRefusals: [] };
  if (!draft || !live) return { ...empty, definitionProblems: 0, next: null, computed: null };
  const parsed = studyDefinitionSchema.safeParse(draft.definition);
  if (!parsed.success)
    return { ...empty, definitionProblems: parsed.error.issues.length, next: null, computed: null };
  const next = parsed.data;
  const declarations = amendmentDeclarationsSchema.parse(amendment.declarations);
  const computed = amendmentChangeSet(live.definition, next, declarations);
  const versions = await executor
    .selectFrom('study_definitions')
    .select('version')
    .where('study_id', '=', studyId)
    .where('version', '=', next.version)
    .execute();
  const studyRefusals: DraftAmendmentState['studyRefusals'] = [];
  if (versions.length > 0) studyRefusals.push({ code: 'versionNotNew', values: { version: next.version } });
  if (next.key !== live.definition.key)
    studyRefusals.push({ code: 'definitionKeyChanged', values: { from: live.definition.key, to: next.key } });
  return { ...empty, studyRefusals, definitionProblems: 0, next, computed };
}

const STUDY_REFUSALS = {
  versionNotNew: {
    ko: '버전 {version}: 이미 있는 버전입니다. 설계의 시험 설정에서 새 버전 번호를 정하세요.',
    en: 'Version {version} exists already: give the draft a new version number in the study settings.',
  },
  definitionKeyChanged: {
    ko: '정의 키 {from} → {to}: 시험의 정의 키는 바꿀 수 없습니다.',
    en: "Definition key {from} → {to}: a study's definition key does not change.",
  },
} as const;

/** The change set in the reader's words, ready only with nothing asked or refused. */
export function describedChangeSet(
  state: DraftAmendmentState,
  language: Language,
): AmendmentChangeSet | null {
  if (!state.computed || !state.live || !state.next) return null;
  const described = describeChangeSet(state.computed, state.live.definition, state.next, language);
  const studyRefusals: AmendmentRefusal[] = state.studyRefusals.map((refusal) => ({
    code: refusal.code,
    element: 'study',
    text: fill(STUDY_REFUSALS[refusal.code][language], refusal.values),
  }));
  return {
    changes: described.changes,
    questions: described.questions,
    refusals: [...studyRefusals, ...described.refusals],
    ready: state.computed.ready && studyRefusals.length === 0,
  };
}

/** The version a draft document names, when it names one (a draft may be any JSON while edited). */
export function draftVersionOf(document: unknown): string | null {
  if (typeof document !== 'object' || document === null) return null;
  const version = (document as { version?: unknown }).version;
  return typeof version === 'string' ? version : null;
}
