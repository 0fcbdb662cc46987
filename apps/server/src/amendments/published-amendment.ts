import {
  type AmendmentChangeSet,
  amendmentChangeSet,
  amendmentDeclarationsSchema,
  type StudyDefinition,
} from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { studyDefinitionOfVersion } from '../studies/study-definitions.ts';
import { requireAmendment } from './amendment-rows.ts';

type Executor = Kysely<Database> | Transaction<Database>;

/** A published amendment as its migration uses it: both versions and the plan that moves values between them. */
export interface PublishedAmendment {
  id: number;
  studyId: number;
  number: string;
  from: { version: string; definition: StudyDefinition };
  to: { version: string; definition: StudyDefinition };
  changeSet: AmendmentChangeSet;
}

/**
 * The amendment of this study, published (404 for none of this study, 409 `amendment_not_published`
 * for a draft or a discarded one), with the change set computed again from the two stored versions
 * and the declarations the signer published: the same plan the impact analysis ran.
 */
export async function requirePublishedAmendment(
  executor: Executor,
  studyId: number,
  amendmentId: number,
): Promise<PublishedAmendment> {
  const row = await requireAmendment(executor, studyId, amendmentId);
  if (row.status !== 'published' || row.to_version === null)
    throw new AppError(409, 'amendment_not_published');
  const from = (await studyDefinitionOfVersion(executor, studyId, row.from_version)).definition;
  const to = (await studyDefinitionOfVersion(executor, studyId, row.to_version)).definition;
  const declarations = amendmentDeclarationsSchema.parse(row.declarations);
  return {
    id: row.id,
    studyId,
    number: row.number,
    from: { version: row.from_version, definition: from },
    to: { version: row.to_version, definition: to },
    changeSet: amendmentChangeSet(from, to, declarations),
  };
}
