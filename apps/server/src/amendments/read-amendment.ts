import type { AmendmentListResponse, AmendmentResponse } from '@cdms/contract';
import { describeChangeSet } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import type { Language } from '../http/language.ts';
import { designDraftRow } from '../study-design/design-draft-row.ts';
import { describedChangeSet, draftAmendmentState, draftVersionOf } from './amendment-change-set.ts';
import { amendmentSummaries, requireAmendment } from './amendment-rows.ts';
import { publishBlocker } from './publish-blocker.ts';
import { requirePublishedAmendment } from './published-amendment.ts';

/** `GET …/amendments`: every amendment of the study, newest first; a draft's version is its design draft's. */
export async function listAmendments(db: Kysely<Database>, studyId: number): Promise<AmendmentListResponse> {
  const amendments = await amendmentSummaries(db, studyId);
  const draft = amendments.some((amendment) => amendment.status === 'draft')
    ? await designDraftRow(db, studyId)
    : undefined;
  const draftVersion = draftVersionOf(draft?.definition);
  return {
    amendments: amendments.map((amendment) =>
      amendment.status === 'draft' ? { ...amendment, toVersion: draftVersion } : amendment,
    ),
  };
}

/**
 * `GET …/amendments/:amendmentId`: the amendment with what it declares and, while a draft, its change
 * set against the live version in the reader's language (what moves, what must still be declared,
 * what is refused).
 */
export async function readAmendment(
  db: Kysely<Database>,
  studyId: number,
  amendmentId: number,
  language: Language,
): Promise<AmendmentResponse> {
  const row = await requireAmendment(db, studyId, amendmentId);
  const [summary] = await amendmentSummaries(db, studyId, amendmentId);
  if (!summary) throw new AppError(404, 'not_found');
  const declarations = row.declarations as Record<string, unknown>;
  if (row.status === 'discarded')
    return {
      amendment: summary,
      declarations,
      draftRevision: null,
      changeSet: null,
      definitionProblems: 0,
      publishBlocker: null,
    };
  if (row.status === 'published') {
    // History: what the published amendment changed, from the two stored versions and its declarations.
    const published = await requirePublishedAmendment(db, studyId, amendmentId);
    const described = describeChangeSet(
      published.changeSet,
      published.from.definition,
      published.to.definition,
      language,
    );
    return {
      amendment: summary,
      declarations,
      draftRevision: null,
      changeSet: { ...described, ready: true },
      definitionProblems: 0,
      publishBlocker: null,
    };
  }
  const state = await draftAmendmentState(db, studyId, row);
  return {
    amendment: { ...summary, toVersion: state.draftVersion },
    declarations,
    draftRevision: state.draftRevision,
    changeSet: describedChangeSet(state, language),
    definitionProblems: state.definitionProblems,
    publishBlocker: (await publishBlocker(db, studyId, row, state)).blocker,
  };
}
