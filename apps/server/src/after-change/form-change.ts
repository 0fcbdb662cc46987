import type {
  FormSet,
  FormValues,
  JsonValue,
  StudyDefinition,
  SubjectData,
  SubjectEvaluation,
} from '@cdms/study';
import type { Transaction } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database, FormInstanceRow, QueryRow, SubjectStatus } from '../db/schema.ts';
import type { SiteLabRange } from '../lab-range-rules/applicable-lab-ranges.ts';
import type { SubjectWithSite } from '../subjects/subject-access.ts';

/**
 * What a form's save tells the reactions that follow it (data-entry/after-change-reactions.ts: SDV
 * reset, signature invalidation, query messages, system queries, statuses, read model). Below both
 * the save and the features: each feature's lower room (sdv-state/, signature-state/, …) exports its
 * reaction against these types, and the save runs the list without naming any of them.
 */

/** A subject's stored form data. */
export interface StoredSubjectData {
  /** Values people entered, per visit and form (derived values left out). */
  entered: SubjectData;
  /** Derived values as last stored. */
  derived: SubjectData;
  instances: Map<string, FormInstanceRow>;
}

/** A query of the subject's that a save may touch (open, answered, or closed over a failing check). */
export type ActiveQuery = Pick<
  QueryRow,
  'id' | 'kind' | 'status' | 'visit_key' | 'form_key' | 'check_id' | 'item_path'
>;

/** An open or answered query, as far as a form's status needs it. */
export type OpenQuery = Pick<QueryRow, 'visit_key' | 'form_key'>;

/** One form's save, stored and audited, as the reactions see it. */
export interface FormChange {
  trx: Transaction<Database>;
  actor: AuditActor;
  subject: SubjectWithSite;
  /** The subject's status as read under its row lock, before this save. */
  statusBefore: SubjectStatus;
  definition: StudyDefinition;
  definitionVersion: string;
  visitKey: string;
  formKey: string;
  /** `visitKey.formKey`, the key of `stored.instances`. */
  key: string;
  /** The form's row as the save found or created it (its new state is in `stored.instances`). */
  instance: FormInstanceRow;
  /** Whether the form had no row before this save. */
  isNewForm: boolean;
  /** The form's entered values before and after, and the items whose value changed. */
  before: FormValues;
  after: FormValues;
  changedKeys: string[];
  /** The changed values to upsert with the form's row ([item, value]; cleared ones are deleted). */
  writtenValues: ReadonlyArray<[string, JsonValue]>;
  /** The forms whose stored derived values the save changed. */
  derivedChangedForms: ReadonlyArray<{ visitKey: string; formKey: string }>;
  /** A system write (registration, randomization, signing) rather than a person's save. */
  systemWrite: boolean;
  at: Date;
  /** The subject's data as read under its lock, `instances` holding the saved form's new state. */
  stored: StoredSubjectData;
  /** The subject's evaluation: derivations over every form, checks of the walked forms. */
  evaluation: SubjectEvaluation;
  /** The forms the save evaluated (`formsToWalk`): the others keep their status and queries. */
  walked: FormSet;
  /** What the save read with the subject (`loadSubjectForSave`). */
  activeQueries: readonly ActiveQuery[];
  verifiedItemKeys: ReadonlySet<string>;
  signed: boolean;
  siteLabRanges: readonly SiteLabRange[];
  /** The subject's form rows as they were before the save (the read model compares). */
  instancesBefore: ReadonlyMap<string, FormInstanceRow>;
  /** What the reactions found, in list order: a later one reads what an earlier one did. */
  effects: ChangeEffects;
}

export interface ChangeEffects {
  /** SDV marks of changed items set back to "changed". */
  verificationsReset: number;
  signatureInvalidated: boolean;
  /** Whether system queries were opened or closed. */
  systemQueriesChanged: boolean;
  /** The subject's open and answered queries after the system queries' step. */
  openQueries?: readonly OpenQuery[];
  statusChanged: boolean;
  /** Every saved form's status after the save, and the saved form's row as written. */
  statuses?: Map<string, string>;
  saved?: FormInstanceRow;
}

/** One reaction to a form's change, run in the save's transaction. */
export type AfterChange = (change: FormChange) => Promise<void>;
