import { todayInKorea } from '@cdms/contract';
import {
  type CheckResult,
  evaluateSubject,
  type FormValues,
  type StudyDefinition,
  type SubjectEvaluation,
} from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { FormChange, StoredSubjectData } from '../after-change/form-change.ts';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database, FormInstanceRow } from '../db/schema.ts';
import { addLabRangeChecks } from '../lab-range-rules/lab-range-checks.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';
import { AFTER_CHANGE } from './after-change-reactions.ts';
import { checkVersionAndHolds } from './check-version-and-holds.ts';
import { evaluateChange } from './evaluate-change.ts';
import { refreshFormStatuses } from './form-statuses.ts';
import { type SubjectForSave, storedSubjectDataOf, subjectDataQuery } from './load-subject-for-save.ts';
import { storeValuesAndAudit } from './store-values-and-audit.ts';
import { failingQueryChecks } from './sync-system-queries.ts';

/**
 * Reading and writing a subject's form data. Every write goes through `writeForm` — saves, resets,
 * query-driven corrections, and the system's own writes (registration, randomization, signing) —
 * in the caller's transaction, as a list of steps, each in its own file:
 * 1. check version and holds (`check-version-and-holds.ts`): the subject's lock, 423, 409;
 * 2. evaluate the change with the engine (`evaluate-change.ts`): hard checks and reasons, 422;
 * 3. store values and audit (`store-values-and-audit.ts`): changed and derived values, one audit
 *    record per changed item;
 * 4. the reactions to the change (`after-change-reactions.ts`): SDV reset, signature invalidation,
 *    query messages, system queries, statuses (the form's row written with its own), read model.
 */

/** The subject's form instances with their values, in one statement (`subjectDataQuery`). */
export async function loadSubjectData(
  executor: Transaction<Database> | Kysely<Database>,
  subjectId: number,
): Promise<StoredSubjectData> {
  return storedSubjectDataOf(await subjectDataQuery(executor, subjectId).execute());
}

export interface WriteFormInput {
  subject: SubjectWithSite;
  /**
   * The caller took the subject's row lock in this transaction and read `subject` with it (a save:
   * `findSubjectAndDefinitionInScope` with `forUpdate`), so its status is current.
   */
  subjectLocked?: boolean;
  definition: StudyDefinition;
  definitionVersion: string;
  visitKey: string;
  formKey: string;
  /** The form's complete new entered values (what is absent is cleared). */
  values: FormValues;
  /** The version the writer started from; a different current version is a conflict. */
  expectedVersion: number;
  /** Reason for change per top-level item key whose saved value changes. */
  reasons: Record<string, string>;
  /** A reason for every change at once (reset), instead of per item. */
  reasonForAll?: string;
  actor: AuditActor;
  /** Skip the reason rule: the system filling a form it owns (registration). */
  systemWrite?: boolean;
  /**
   * What the save reads about the subject, when the caller has sent that read already, under the
   * subject's lock (`saveForm`: right behind the read that takes the lock, in one round trip).
   */
  forSave?: Promise<SubjectForSave>;
  /** When the data were entered, if not now (`SaveFormInput.enteredAt`): a new form's first save. */
  enteredAt?: Date | undefined;
}

export interface WriteFormResult {
  instance: FormInstanceRow;
  /** The subject's derived data and the evaluation of the forms the write walked, its own among them. */
  evaluation: SubjectEvaluation;
  /**
   * The subject's data as the write left it (entered values, every form's instance with its new
   * status): what the save's answer is built from, without reading it all again.
   */
  data: SavedSubjectData;
}

/** A subject's entered values and form instances as a write left them. */
export type SavedSubjectData = Pick<StoredSubjectData, 'entered' | 'instances'>;

export async function writeForm(trx: Transaction<Database>, input: WriteFormInput): Promise<WriteFormResult> {
  const found = await checkVersionAndHolds(trx, input);
  // The form rows as they were: the read model compares which forms hold data before and after.
  const instancesBefore = new Map(found.stored.instances);
  const evaluated = await evaluateChange(trx, input, found);
  const at = new Date();
  const stored = await storeValuesAndAudit(trx, input, found, evaluated, at);
  const change: FormChange = {
    trx,
    actor: input.actor,
    subject: input.subject,
    statusBefore: found.statusBefore,
    definition: input.definition,
    definitionVersion: input.definitionVersion,
    visitKey: input.visitKey,
    formKey: input.formKey,
    key: found.key,
    instance: stored.instance,
    isNewForm: found.current === undefined,
    before: evaluated.before,
    after: evaluated.after,
    changedKeys: evaluated.changedKeys,
    writtenValues: stored.writtenValues,
    derivedChangedForms: stored.derivedChangedForms,
    systemWrite: input.systemWrite === true,
    at,
    stored: found.stored,
    evaluation: evaluated.evaluation,
    walked: evaluated.walked,
    activeQueries: found.activeQueries,
    verifiedItemKeys: found.verifiedItemKeys,
    signed: found.signed,
    siteLabRanges: found.siteLabRanges,
    instancesBefore,
    effects: {
      verificationsReset: 0,
      signatureInvalidated: false,
      systemQueriesChanged: false,
      statusChanged: false,
    },
  };
  for (const react of AFTER_CHANGE) await react(change);
  const saved = change.effects.saved;
  if (!saved) throw new Error("No reaction wrote the form's row: see data-entry/after-change-reactions.ts.");
  return {
    instance: saved,
    evaluation: evaluated.evaluation,
    data: { entered: evaluated.data, instances: found.stored.instances },
  };
}

/**
 * After a query's state changed outside a save: the subject's data evaluated again, each saved
 * form's stored status brought in line with its open queries, and the failing checks returned.
 */
export async function refreshAfterQueryChange(
  trx: Transaction<Database>,
  definition: StudyDefinition,
  subjectId: number,
): Promise<Map<string, CheckResult>> {
  const stored = await loadSubjectData(trx, subjectId);
  const evaluation = evaluateSubject(definition, stored.entered, { today: todayInKorea() });
  await addLabRangeChecks(trx, definition, { subjectId }, evaluation);
  await refreshFormStatuses(trx, definition, subjectId, stored, evaluation);
  return failingQueryChecks(stored, evaluation);
}
