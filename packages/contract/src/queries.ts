import { z } from 'zod';
import { bodyIdSchema, pagedShape, pageQueryShape, paramIdSchema, sortOrderQuerySchema } from './ids.ts';
import { localizedSchema } from './localized.ts';
import { roleSchema } from './roles.ts';

/**
 * Queries (product.md "Queries, SDV, freezing, locking"; issue 14): a question on one item of one
 * form of one subject (or on the whole form), raised by an edit check (system) or by a monitor or data
 * manager (manual), answered by the site, closed, cancelled or reopened by the monitor, with a thread
 * of messages. The server's workflow (apps/server/src/queries/query-workflow.ts) decides what each
 * action does; the browser is told which actions the reader may take on each query (`abilities`).
 *
 * Routes (all under /api/studies/:studyId/queries):
 *   GET    /                      the list: filters, sort and page below (queryListQuerySchema)
 *   GET    /export?format=csv     the same filters, every row, as CSV or XLSX
 *   POST   /                      raise a manual query (createQueryRequestSchema) → 201 QueryDetail
 *   GET    /:queryId              one query with its thread → QueryDetail
 *   POST   /:queryId/answer       the site answers (answerQueryRequestSchema) → QueryDetail
 *   POST   /:queryId/comment      a message that does not change the state → QueryDetail
 *   POST   /:queryId/close        the monitor closes (closeQueryRequestSchema) → QueryDetail
 *   POST   /:queryId/cancel       the monitor withdraws a manual query raised in error → QueryDetail
 *   POST   /:queryId/reopen       the monitor sends it back to open, with a message → QueryDetail
 *   POST   /bulk                  close or cancel many with one reason (bulkQueryRequestSchema)
 * An action not allowed from the query's state is a 409 `query_state_conflict` whose details carry
 * the current state; a query on a subject outside the reader's sites is a 404.
 */

export const queryStates = ['open', 'answered', 'closed', 'cancelled'] as const;
export type QueryStateValue = (typeof queryStates)[number];

export const queryKinds = ['system', 'manual'] as const;
export type QueryKindValue = (typeof queryKinds)[number];

/** Who is asked to act next: the site (PI, SI, CRC; the default), the monitor (CRA) or data management (DM). */
export const queryAssignees = ['site', 'monitor', 'dataManagement'] as const;
export type QueryAssignee = (typeof queryAssignees)[number];

/** Age of a query in whole days since it was opened (UTC+9 days), in the buckets monitors report on. */
export const queryAgeBuckets = ['0-7', '8-14', '15-30', '31+'] as const;
export type QueryAgeBucket = (typeof queryAgeBuckets)[number];

/** What a message in the thread records. */
export const queryMessageKinds = [
  /** The text the query was raised with (a person's, or the edit check's message). */
  'opened',
  'answer',
  'comment',
  'close',
  'cancel',
  'reopen',
  /** Posted by the system when the item's value changes while the query is open or answered. */
  'value_changed',
  /** Posted by the system when the edit check no longer fails and closes its query. */
  'closed_by_check',
] as const;
export type QueryMessageKind = (typeof queryMessageKinds)[number];

export const queryActions = ['answer', 'comment', 'close', 'cancel', 'reopen'] as const;
export type QueryActionValue = (typeof queryActions)[number];

/** Longest text of one message (issue 14: "text required, ≤ 2,000 characters"). */
export const QUERY_TEXT_MAX = 2000;
/** Most queries one bulk close or cancel takes. */
export const QUERY_BULK_MAX = 500;
export const QUERY_LIST_PAGE_SIZES = [10, 50, 100] as const;
export const QUERY_SEARCH_MAX = 100;

/** Key of the form itself when a query is on the whole form rather than one item. */
export const WHOLE_FORM_ITEM_PATH = '';

/** A message's text: what a person wrote is the same in both languages; the system's is translated. */
const messageTextSchema = z.string().trim().min(1).max(QUERY_TEXT_MAX);

// ---------------------------------------------------------------------------------------------
// Requests

export const createQueryRequestSchema = z.strictObject({
  subjectPk: bodyIdSchema,
  visitKey: z.string().min(1).max(100),
  formKey: z.string().min(1).max(100),
  /** The item's path in the form (as in FormDataResponse.queries), or WHOLE_FORM_ITEM_PATH. */
  itemPath: z.string().max(200),
  text: messageTextSchema,
  assignee: z.enum(queryAssignees).default('site'),
});
export type CreateQueryRequest = z.input<typeof createQueryRequestSchema>;

export const answerQueryRequestSchema = z.strictObject({
  text: messageTextSchema,
  /**
   * The value the site proposes or has just saved (a correction goes through the normal form save
   * with its reason for change first); kept in the thread for the monitor to compare.
   */
  proposedValue: z.union([z.string().max(QUERY_TEXT_MAX), z.number(), z.boolean(), z.null()]).optional(),
});
export type AnswerQueryRequest = z.input<typeof answerQueryRequestSchema>;

export const commentQueryRequestSchema = z.strictObject({ text: messageTextSchema });
export type CommentQueryRequest = z.input<typeof commentQueryRequestSchema>;

/** The reason is required when a system query is closed while its check still fails (422 otherwise). */
export const closeQueryRequestSchema = z.strictObject({ text: messageTextSchema.optional() });
export type CloseQueryRequest = z.input<typeof closeQueryRequestSchema>;

export const cancelQueryRequestSchema = z.strictObject({ text: messageTextSchema });
export type CancelQueryRequest = z.input<typeof cancelQueryRequestSchema>;

export const reopenQueryRequestSchema = z.strictObject({ text: messageTextSchema });
export type ReopenQueryRequest = z.input<typeof reopenQueryRequestSchema>;

/** All or nothing: when any query may not take the action, nothing changes (409 listing them). */
export const bulkQueryRequestSchema = z.strictObject({
  action: z.enum(['close', 'cancel']),
  queryIds: z.array(bodyIdSchema).min(1).max(QUERY_BULK_MAX),
  text: messageTextSchema,
});
export type BulkQueryRequest = z.input<typeof bulkQueryRequestSchema>;

export const bulkQueryResponseSchema = z.object({ updated: z.number().int() });
export type BulkQueryResponse = z.infer<typeof bulkQueryResponseSchema>;

// ---------------------------------------------------------------------------------------------
// The list

export const queryListSortKeys = [
  'age',
  'openedAt',
  'lastMessageAt',
  'subjectId',
  'site',
  'visit',
  'form',
  'state',
  'kind',
] as const;
export type QueryListSortKey = (typeof queryListSortKeys)[number];

/** The list filters' choices, as the API reads them and the filter panel offers them. */
export const queryStateFilters = ['unresolved', 'all', ...queryStates] as const;
export const queryKindFilters = ['all', ...queryKinds] as const;
export const queryAssigneeFilters = ['all', ...queryAssignees] as const;
export const queryAgeFilters = ['all', ...queryAgeBuckets] as const;

const queryFilterShape = {
  /** `unresolved` = open or answered (the default: what still needs work). */
  state: z.enum(queryStateFilters).default('unresolved'),
  kind: z.enum(queryKindFilters).default('all'),
  siteId: paramIdSchema.optional(),
  /** Screening or randomization number, or initials; case-insensitive, part of it. */
  subject: z.string().trim().max(QUERY_SEARCH_MAX).optional(),
  visitKey: z.string().max(100).optional(),
  formKey: z.string().max(100).optional(),
  itemPath: z.string().max(200).optional(),
  assignee: z.enum(queryAssigneeFilters).default('all'),
  age: z.enum(queryAgeFilters).default('all'),
  /** Words in any message of the thread; case-insensitive. */
  text: z.string().trim().max(QUERY_SEARCH_MAX).optional(),
  sort: z.enum(queryListSortKeys).default('age'),
  order: sortOrderQuerySchema.default('desc'),
};

export const queryListFilterSchema = z.object(queryFilterShape);
export type QueryListFilter = z.output<typeof queryListFilterSchema>;

export const queryListQuerySchema = z.object({
  ...queryFilterShape,
  ...pageQueryShape(QUERY_LIST_PAGE_SIZES, 10),
});
export type QueryListQuery = z.input<typeof queryListQuerySchema>;

export const queryExportQuerySchema = z.object({
  ...queryFilterShape,
  format: z.enum(['csv', 'xlsx']),
});
export type QueryExportQuery = z.input<typeof queryExportQuerySchema>;

export const queryAuthorSchema = z.object({
  userId: z.number().int(),
  name: z.string(),
  role: roleSchema,
});

export const queryMessageSchema = z.object({
  id: z.number().int(),
  kind: z.enum(queryMessageKinds),
  text: localizedSchema,
  /** Null for the system's messages (edit checks, value changes). */
  author: queryAuthorSchema.nullable(),
  /** ISO instant; shown in UTC+9. */
  at: z.string(),
  /** On answers: the value the site proposes or saved; on value changes: the new value. */
  proposedValue: z.union([z.string(), z.number(), z.boolean(), z.null()]).nullable(),
});
export type QueryMessage = z.infer<typeof queryMessageSchema>;

export const queryAbilitiesSchema = z.object({
  answer: z.boolean(),
  comment: z.boolean(),
  close: z.boolean(),
  cancel: z.boolean(),
  reopen: z.boolean(),
});
export type QueryAbilities = z.infer<typeof queryAbilitiesSchema>;

export const queryListRowSchema = z.object({
  id: z.number().int(),
  kind: z.enum(queryKinds),
  state: z.enum(queryStates),
  /** Sent back to open at least once. */
  reopened: z.boolean(),
  assignee: z.enum(queryAssignees),
  subject: z.object({
    pk: z.number().int(),
    subjectId: z.string(),
    registrationNumber: z.string().nullable(),
    siteId: z.number().int(),
    /** Site code. */
    site: z.string(),
  }),
  visitKey: z.string(),
  formKey: z.string(),
  /** WHOLE_FORM_ITEM_PATH for a query on the whole form. */
  itemPath: z.string(),
  visitLabel: localizedSchema,
  formLabel: localizedSchema,
  /** The item's label, or the form's for a query on the whole form. */
  itemLabel: localizedSchema,
  /** The edit check that raised a system query. */
  checkId: z.string().nullable(),
  openedAt: z.string(),
  /** Whole days (UTC+9) from opening to closing, or to today while it is not closed or cancelled. */
  ageDays: z.number().int(),
  closedAt: z.string().nullable(),
  messageCount: z.number().int(),
  lastMessage: queryMessageSchema,
});
export type QueryListRow = z.infer<typeof queryListRowSchema>;

export const queryListResponseSchema = z.object({
  queries: z.array(queryListRowSchema),
  ...pagedShape,
  /** The reader may close or cancel in bulk (CRA, DM). */
  canManage: z.boolean(),
});
export type QueryListResponse = z.infer<typeof queryListResponseSchema>;

export const queryDetailSchema = queryListRowSchema.extend({
  messages: z.array(queryMessageSchema),
  /** For a system query: whether its edit check still fails on the saved data (closing then needs a reason). */
  checkStillFails: z.boolean(),
  abilities: queryAbilitiesSchema,
});
export type QueryDetail = z.infer<typeof queryDetailSchema>;
