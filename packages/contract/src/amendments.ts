import { z } from 'zod';
import { calendarDateSchema } from './calendar-date.ts';
import { byWhomSchema } from './design-drafts.ts';
import { bodyIdSchema, pageQueryShape, paramIdSchema, subjectSearchQuerySchema } from './ids.ts';
import { reasonSchema } from './reason.ts';
import { signCasebookRequestSchema } from './signatures.ts';

/**
 * Amendments (issue 49): a live study's next definition version, drafted in the designer (the study's
 * design draft), with an amendment number, a reason and, per site, the date its ethics approval takes
 * effect. The server compares the draft with the live version and asks for what it cannot guess
 * (renames, code mappings, conversions, replacements): the change set, worded in the reader's language.
 *
 * Routes (the study's designers, `study.design`: DM and ADMIN):
 *   GET    /api/studies/:studyId/amendments
 *   POST   /api/studies/:studyId/amendments
 *   GET    /api/studies/:studyId/amendments/:amendmentId?lang=ko|en
 *   PUT    /api/studies/:studyId/amendments/:amendmentId
 *   POST   /api/studies/:studyId/amendments/:amendmentId/discard
 */

export const amendmentStatuses = ['draft', 'published', 'discarded'] as const;
export const amendmentStatusSchema = z.enum(amendmentStatuses);
export type AmendmentStatus = z.infer<typeof amendmentStatusSchema>;

/** An amendment's number as the protocol names it ("AM-01", "Amendment 2"). */
export const amendmentNumberSchema = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} ._/-]*$/u);

/** A site's ethics approval date of the amendment; null while the site has none. */
export const amendmentSiteDateSchema = z.strictObject({
  siteId: bodyIdSchema,
  effectiveOn: calendarDateSchema.nullable(),
});

/** What a designer writes of an amendment: number, reason and the sites' dates (sites left out have none). */
export const amendmentFieldsSchema = z.strictObject({
  number: amendmentNumberSchema,
  reason: reasonSchema,
  sites: z.array(amendmentSiteDateSchema).max(500),
});
export type AmendmentFields = z.infer<typeof amendmentFieldsSchema>;
export const openAmendmentRequestSchema = amendmentFieldsSchema;
export type OpenAmendmentRequest = z.infer<typeof openAmendmentRequestSchema>;

/**
 * A change of a draft amendment: its fields and what the designer declares (packages/study's
 * `amendmentDeclarationsSchema`: formRenames, itemRenames, codeMappings, typeConversions,
 * replacements), checked by the server with the study package's schema.
 */
export const changeAmendmentRequestSchema = amendmentFieldsSchema.extend({
  declarations: z.record(z.string(), z.unknown()),
});
export type ChangeAmendmentRequest = z.infer<typeof changeAmendmentRequestSchema>;

export const amendmentSiteSchema = z.object({
  siteId: z.number().int(),
  code: z.string(),
  name: z.string(),
  effectiveOn: z.string().nullable(),
});
export type AmendmentSite = z.infer<typeof amendmentSiteSchema>;

/**
 * Whether a site's ethics approval of an amendment is in effect on `today` (both YYYY-MM-DD in Korea's
 * calendar, `todayInKorea`): from its date on; never without one. The server's queries that find due
 * migrations say the same in SQL (`effective_on <= today`).
 */
export function approvalInEffect(effectiveOn: string | null, today: string): boolean {
  return effectiveOn !== null && effectiveOn <= today;
}

export const amendmentSummarySchema = z.object({
  id: z.number().int(),
  number: z.string(),
  reason: z.string(),
  status: amendmentStatusSchema,
  /** The live version the amendment changes. */
  fromVersion: z.string(),
  /** The version it publishes (the draft's, while a draft); null while the draft has no readable version. */
  toVersion: z.string().nullable(),
  openedBy: byWhomSchema,
  publishedBy: byWhomSchema.nullable(),
  /** The published version's content hash (the e-signature's subject); null until published. */
  contentHash: z.string().nullable(),
  sites: z.array(amendmentSiteSchema),
});
export type AmendmentSummary = z.infer<typeof amendmentSummarySchema>;

export const amendmentListResponseSchema = z.object({ amendments: z.array(amendmentSummarySchema) });
export type AmendmentListResponse = z.infer<typeof amendmentListResponseSchema>;

/**
 * An element of the definition a line is about, as the designer's review comments name them:
 * `study`, `visit:V1`, `form:DM`, `form:DM/item:AGE`, `codeList:SEX`.
 */
const elementSchema = z.string();

/** What happens to stored data, in the reader's language. `kind`: packages/study's `AmendmentChange`. */
export const amendmentChangeLineSchema = z.object({
  kind: z.string(),
  element: elementSchema,
  text: z.string(),
});
export type AmendmentChangeLine = z.infer<typeof amendmentChangeLineSchema>;

/** What the designer must still declare, with the keys a declaration names (live keys unless `added`). */
export const amendmentQuestionSchema = z.discriminatedUnion('code', [
  z.object({
    code: z.literal('formRenameOrReplace'),
    removed: z.string(),
    added: z.string(),
    element: elementSchema,
    text: z.string(),
  }),
  z.object({
    code: z.literal('itemRenameOrReplace'),
    form: z.string(),
    removed: z.string(),
    added: z.string(),
    element: elementSchema,
    text: z.string(),
  }),
  z.object({
    code: z.literal('codesNeedMapping'),
    codeList: z.string(),
    codes: z.array(z.string()),
    /** The codes of the next version's list, to map onto. */
    nextCodes: z.array(z.string()),
    element: elementSchema,
    text: z.string(),
  }),
  z.object({
    code: z.literal('conversionNeeded'),
    form: z.string(),
    item: z.string(),
    from: z.string(),
    to: z.string(),
    element: elementSchema,
    text: z.string(),
  }),
]);
export type AmendmentQuestion = z.infer<typeof amendmentQuestionSchema>;

/** A declaration that cannot be published as it is, in the reader's language. */
export const amendmentRefusalSchema = z.object({
  code: z.string(),
  element: elementSchema,
  text: z.string(),
});
export type AmendmentRefusal = z.infer<typeof amendmentRefusalSchema>;

export const amendmentChangeSetSchema = z.object({
  changes: z.array(amendmentChangeLineSchema),
  questions: z.array(amendmentQuestionSchema),
  refusals: z.array(amendmentRefusalSchema),
  /** Nothing asked, nothing refused, and the draft is a valid definition of a new version. */
  ready: z.boolean(),
});
export type AmendmentChangeSet = z.infer<typeof amendmentChangeSetSchema>;

export const amendmentQuerySchema = z.object({ lang: z.enum(['ko', 'en']).optional() });

export const publishBlockerSchema = z.enum(['noChangeSet', 'notReady', 'noImpact', 'stale']);
export type PublishBlocker = z.infer<typeof publishBlockerSchema>;

/** `GET …/amendments/:id`: the amendment, what it declares, and its change set against the live version. */
export const amendmentResponseSchema = z.object({
  amendment: amendmentSummarySchema,
  declarations: z.record(z.string(), z.unknown()),
  /** The design draft's revision the change set was computed on; null when the amendment is not a draft. */
  draftRevision: z.number().int().nullable(),
  /**
   * The change set; null while the draft is not a valid definition (`definitionProblems` says how many
   * problems the designer shows).
   */
  changeSet: amendmentChangeSetSchema.nullable(),
  definitionProblems: z.number().int(),
  /**
   * Why a draft cannot be published yet (the server's own rule, which the publication enforces):
   * `noChangeSet` (the draft is not a valid definition), `notReady` (questions or refusals),
   * `noImpact` (no analysis run), `stale` (the draft or its inputs changed since); null when it can,
   * and for a published or discarded amendment.
   */
  publishBlocker: publishBlockerSchema.nullable(),
});
export type AmendmentResponse = z.infer<typeof amendmentResponseSchema>;

export const amendmentParamsSchema = z.object({ studyId: paramIdSchema, amendmentId: paramIdSchema });

export const discardAmendmentRequestSchema = z.strictObject({ reason: reasonSchema });
export type DiscardAmendmentRequest = z.infer<typeof discardAmendmentRequestSchema>;

/**
 * The impact analysis of a draft amendment (issue 49 item 3): the next version's engine run over the
 * stored data, one row per thing that would change. `kind` (the server's `IMPACT_KINDS`):
 * valueRenamed, valueConverted, valueRecoded, valueRetired, formIncomplete, formComplete, queryOpens,
 * queryCloses, derivedChanges, sdvInvalidated, signatureInvalidated, heldFormTouched, siteNotInEffect.
 *
 *   POST /api/studies/:studyId/amendments/:amendmentId/impact            run it again (stored)
 *   GET  /api/studies/:studyId/amendments/:amendmentId/impact            the last run's counts
 *   GET  /api/studies/:studyId/amendments/:amendmentId/impact/rows?kind=&siteId=&subject=&page=&size=&lang=
 */
export const impactKinds = [
  'valueRenamed',
  'valueConverted',
  'valueRecoded',
  'valueRetired',
  'formIncomplete',
  'formComplete',
  'queryOpens',
  'queryCloses',
  'derivedChanges',
  'sdvInvalidated',
  'signatureInvalidated',
  'heldFormTouched',
  'siteNotInEffect',
] as const;
export const impactKindSchema = z.enum(impactKinds);
export type ImpactKind = z.infer<typeof impactKindSchema>;

export const amendmentImpactSchema = z.object({
  computedAt: z.string(),
  computedBy: z.string(),
  /** The draft revision and whether the draft and declarations are still those the run read. */
  draftRevision: z.number().int(),
  current: z.boolean(),
  subjects: z.number().int(),
  byKind: z.record(impactKindSchema, z.object({ rows: z.number().int(), subjects: z.number().int() })),
});
export type AmendmentImpact = z.infer<typeof amendmentImpactSchema>;

export const amendmentImpactResponseSchema = z.object({ impact: amendmentImpactSchema.nullable() });
export type AmendmentImpactResponse = z.infer<typeof amendmentImpactResponseSchema>;

export const IMPACT_PAGE_SIZES = [25, 50, 100] as const;
export const amendmentImpactRowsQuerySchema = z.object({
  lang: z.enum(['ko', 'en']).optional(),
  kind: impactKindSchema.optional(),
  siteId: paramIdSchema.optional(),
  subject: subjectSearchQuerySchema.optional(),
  ...pageQueryShape(IMPACT_PAGE_SIZES, 50),
});

/** One thing the amendment would change: where (subject, visit, form, item) and the values before and after. */
export const amendmentImpactRowSchema = z.object({
  subjectPk: z.number().int(),
  subjectId: z.string(),
  site: z.string(),
  visitKey: z.string().nullable(),
  formKey: z.string().nullable(),
  itemKey: z.string().nullable(),
  /** The visit's, form's and item's names in the reader's language (the draft's, else the live version's); null: none. */
  visit: z.string().nullable(),
  form: z.string().nullable(),
  item: z.string().nullable(),
  kind: impactKindSchema,
  before: z.unknown(),
  after: z.unknown(),
});
export type AmendmentImpactRow = z.infer<typeof amendmentImpactRowSchema>;

export const amendmentImpactRowsResponseSchema = z.object({
  rows: z.array(amendmentImpactRowSchema),
  total: z.number().int(),
  page: z.number().int(),
  size: z.number().int(),
});
export type AmendmentImpactRowsResponse = z.infer<typeof amendmentImpactRowsResponseSchema>;

/**
 * Publishing a draft amendment (issue 49 item 1): the designer's e-signature (password entered again,
 * the code with two-factor sign-in) meaning "approved", on a change set that is ready and an impact
 * analysis run on the draft as it is (409 `amendment_not_ready`, `amendment_impact_stale`).
 *
 *   POST /api/studies/:studyId/amendments/:amendmentId/publish   → AmendmentResponse
 */
export const publishAmendmentRequestSchema = signCasebookRequestSchema;
export type PublishAmendmentRequest = z.infer<typeof publishAmendmentRequestSchema>;

/**
 * Migration (issue 49 item 4): a published amendment moves subjects from its `fromVersion` to its
 * `toVersion`, one subject per transaction, by a background job in batches. A site's job starts by
 * itself on the day its approval takes effect (`automatic`); a designer starts one for the study, a
 * site or a subject at any time. A subject with a frozen or locked form the amendment touches waits
 * (`held`) until the hold is lifted and a later job moves it.
 *
 *   GET  /api/studies/:studyId/amendments/:amendmentId/migrations   → AmendmentMigrationsResponse
 *   POST /api/studies/:studyId/amendments/:amendmentId/migrations   StartMigrationRequest → { migration }
 */
export const startMigrationRequestSchema = z.discriminatedUnion('scope', [
  z.strictObject({ scope: z.literal('study') }),
  z.strictObject({ scope: z.literal('site'), siteId: bodyIdSchema }),
  z.strictObject({ scope: z.literal('subject'), subjectId: bodyIdSchema }),
]);
export type StartMigrationRequest = z.infer<typeof startMigrationRequestSchema>;

export const migrationStatuses = ['queued', 'running', 'done'] as const;
export const migrationStatusSchema = z.enum(migrationStatuses);

export const amendmentMigrationSchema = z.object({
  id: z.number().int(),
  scope: z.enum(['study', 'site', 'subject']),
  /** The site's code (scope site) or the subject's screening number (scope subject); null for the study. */
  target: z.string().nullable(),
  status: migrationStatusSchema,
  /** Started by the site's approval date, not by a person. */
  automatic: z.boolean(),
  requestedBy: byWhomSchema.nullable(),
  /** Subjects on the amendment's `fromVersion` in scope when the job started. */
  total: z.number().int(),
  migrated: z.number().int(),
  /** Waiting for a hold on a form the amendment touches. */
  held: z.number().int(),
  /** Refused by the next version's hard checks; each listed in `failures`. */
  failed: z.number().int(),
  failures: z.array(z.object({ subjectId: z.string(), message: z.string() })),
  finishedAt: z.string().nullable(),
});
export type AmendmentMigration = z.infer<typeof amendmentMigrationSchema>;

export const amendmentMigrationsResponseSchema = z.object({
  migrations: z.array(amendmentMigrationSchema),
  /** The study's subjects by version: still on `fromVersion`, already on `toVersion`. */
  subjects: z.object({ onFromVersion: z.number().int(), onToVersion: z.number().int() }),
});
export type AmendmentMigrationsResponse = z.infer<typeof amendmentMigrationsResponseSchema>;

export const startMigrationResponseSchema = z.object({ migration: amendmentMigrationSchema });
export type StartMigrationResponse = z.infer<typeof startMigrationResponseSchema>;
