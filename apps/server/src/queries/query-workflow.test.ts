import { describe, expect, it } from 'vitest';
import {
  allowedQueryActions,
  applyQueryAction,
  QUERY_ACTIONS,
  type QueryAction,
  type QueryState,
} from './query-workflow.ts';

const STATES: QueryState[] = ['open', 'answered', 'closed', 'cancelled'];

/** Every allowed transition, written out by hand: the table the workflow must match exactly. */
const ALLOWED: Record<QueryAction, Partial<Record<QueryState, QueryState>>> = {
  answer: { open: 'answered', answered: 'answered' },
  close: { open: 'closed', answered: 'closed' },
  cancel: { open: 'cancelled', answered: 'cancelled' },
  reopen: { answered: 'open', closed: 'open' },
  comment: { open: 'open', answered: 'answered' },
};

describe('applyQueryAction', () => {
  for (const action of QUERY_ACTIONS)
    for (const state of STATES) {
      const expected = ALLOWED[action][state];
      it(`${action} from ${state}: ${expected ?? 'refused'}`, () => {
        const outcome = applyQueryAction(action, { state, kind: 'manual', message: 'source checked' });
        expect(outcome).toEqual(
          expected ? { allowed: true, next: expected } : { allowed: false, reason: 'not_allowed_in_state' },
        );
      });
    }

  it('never cancels a system query (its check raised it; it closes)', () => {
    expect(applyQueryAction('cancel', { state: 'open', kind: 'system', message: null })).toEqual({
      allowed: false,
      reason: 'system_query_not_cancellable',
    });
  });

  it('closes a system query whose check still fails only with a reason', () => {
    const input = { state: 'answered' as const, kind: 'system' as const, checkStillFails: true };
    expect(applyQueryAction('close', { ...input, message: '  ' })).toEqual({
      allowed: false,
      reason: 'message_required',
    });
    expect(applyQueryAction('close', { ...input, message: '원자료와 일치 확인' })).toEqual({
      allowed: true,
      next: 'closed',
    });
    expect(applyQueryAction('close', { ...input, checkStillFails: false, message: null })).toEqual({
      allowed: true,
      next: 'closed',
    });
  });

  it('needs a message to answer, reopen or comment, not to close a manual query or cancel', () => {
    for (const action of ['answer', 'reopen', 'comment'] as const) {
      const state = action === 'reopen' ? 'closed' : 'open';
      expect(applyQueryAction(action, { state, kind: 'manual', message: null })).toEqual({
        allowed: false,
        reason: 'message_required',
      });
    }
    expect(applyQueryAction('close', { state: 'open', kind: 'manual', message: null }).allowed).toBe(true);
    expect(applyQueryAction('cancel', { state: 'open', kind: 'manual', message: null }).allowed).toBe(true);
  });
});

describe('allowedQueryActions', () => {
  it('gives the site answer and comment on open and answered queries, nothing once closed', () => {
    const site = { answer: true, manage: false };
    expect(allowedQueryActions('open', 'manual', site)).toEqual(['answer', 'comment']);
    expect(allowedQueryActions('answered', 'system', site)).toEqual(['answer', 'comment']);
    expect(allowedQueryActions('closed', 'manual', site)).toEqual([]);
    expect(allowedQueryActions('cancelled', 'manual', site)).toEqual([]);
  });

  it('gives the monitor close, cancel (manual only), reopen and comment as the states allow', () => {
    const monitor = { answer: false, manage: true };
    expect(allowedQueryActions('open', 'manual', monitor)).toEqual(['close', 'cancel', 'comment']);
    expect(allowedQueryActions('open', 'system', monitor)).toEqual(['close', 'comment']);
    expect(allowedQueryActions('answered', 'manual', monitor)).toEqual([
      'close',
      'cancel',
      'reopen',
      'comment',
    ]);
    expect(allowedQueryActions('closed', 'manual', monitor)).toEqual(['reopen']);
    expect(allowedQueryActions('cancelled', 'manual', monitor)).toEqual([]);
  });

  it('gives a reader without either permission nothing', () => {
    for (const state of STATES)
      expect(allowedQueryActions(state, 'manual', { answer: false, manage: false })).toEqual([]);
  });
});
