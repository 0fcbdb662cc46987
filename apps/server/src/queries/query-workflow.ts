import type { QueryRow } from '../db/schema.ts';

/**
 * The query workflow (product.md "Queries, SDV, freezing, locking"), as data and one pure function,
 * so that the commands, the abilities the browser is told and the tests all read the same rules.
 *
 *   open ──answer──▶ answered ──close──▶ closed
 *    │ ▲               │  │                │
 *    │ └────reopen─────┘  └─cancel─▶ cancelled
 *    ├──close / cancel──▶ …        closed ──reopen──▶ open
 *
 * - answer: the site (PI, SI, CRC) answers an open query; a re-answer of an answered query only adds
 *   to the thread.
 * - close: the monitor or data manager (CRA, DM) closes an open or answered query. A system query whose
 *   check still fails may be closed too ("value confirmed against source"): the closure then needs a
 *   reason, which the audit record keeps.
 * - cancel: CRA/DM withdraw a query raised in error; system queries cannot be cancelled (their check
 *   raised them; they close).
 * - reopen: CRA/DM send an answered or closed query back to open, always with a message.
 * - comment: anyone who may answer or manage adds a message without changing the state, while the
 *   query is open or answered.
 *
 * Who may act is the permission matrix's `query.answer` / `query.manage` (auth/permissions.ts); this
 * module says what each action does to each state.
 */

export type QueryState = QueryRow['status'];
export type QueryKind = QueryRow['kind'];
export type QueryAction = 'answer' | 'close' | 'cancel' | 'reopen' | 'comment';

export const QUERY_ACTIONS: readonly QueryAction[] = ['answer', 'close', 'cancel', 'reopen', 'comment'];

/** Which permission of the matrix each action needs. */
export const QUERY_ACTION_PERMISSION: Record<QueryAction, 'query.answer' | 'query.manage' | 'either'> = {
  answer: 'query.answer',
  close: 'query.manage',
  cancel: 'query.manage',
  reopen: 'query.manage',
  comment: 'either',
};

/** The state an action leads to from each state it is allowed in. */
const TRANSITIONS: Record<QueryAction, Partial<Record<QueryState, QueryState>>> = {
  answer: { open: 'answered', answered: 'answered' },
  close: { open: 'closed', answered: 'closed' },
  cancel: { open: 'cancelled', answered: 'cancelled' },
  reopen: { answered: 'open', closed: 'open' },
  comment: { open: 'open', answered: 'answered' },
};

export interface QueryActionInput {
  state: QueryState;
  kind: QueryKind;
  /** A message, e.g. the answer's text; required where `messageRequired` says. */
  message: string | null;
  /** For closing a system query: does its check still fail on the stored data? */
  checkStillFails?: boolean;
}

export type QueryActionOutcome =
  | { allowed: true; next: QueryState }
  | { allowed: false; reason: 'not_allowed_in_state' | 'system_query_not_cancellable' | 'message_required' };

/** Whether the action needs a message from its author. */
export function messageRequired(
  action: QueryAction,
  input: Pick<QueryActionInput, 'kind' | 'checkStillFails'>,
): boolean {
  if (action === 'answer' || action === 'reopen' || action === 'comment') return true;
  // Closing a system query whose check still fails overrides the check: say why.
  return action === 'close' && input.kind === 'system' && input.checkStillFails === true;
}

/** What `action` does to a query in `input.state`, or why it is refused. */
export function applyQueryAction(action: QueryAction, input: QueryActionInput): QueryActionOutcome {
  const next = TRANSITIONS[action][input.state];
  if (next === undefined) return { allowed: false, reason: 'not_allowed_in_state' };
  if (action === 'cancel' && input.kind === 'system')
    return { allowed: false, reason: 'system_query_not_cancellable' };
  if (messageRequired(action, input) && !input.message?.trim())
    return { allowed: false, reason: 'message_required' };
  return { allowed: true, next };
}

/** The actions someone who `may` answer and/or manage queries can take on a query in `state` (what the browser is told). */
export function allowedQueryActions(
  state: QueryState,
  kind: QueryKind,
  may: { answer: boolean; manage: boolean },
): QueryAction[] {
  return QUERY_ACTIONS.filter((action) => {
    const permission = QUERY_ACTION_PERMISSION[action];
    const permitted =
      permission === 'either'
        ? may.answer || may.manage
        : may[permission === 'query.answer' ? 'answer' : 'manage'];
    if (!permitted) return false;
    if (TRANSITIONS[action][state] === undefined) return false;
    return !(action === 'cancel' && kind === 'system');
  });
}
