import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import type { Database } from '../db/schema.ts';
import { checkPublishableDefinition } from './check-publishable-definition.ts';
import { publishStudyDefinition } from './publish-study-definition.ts';
import { requireStudyInDesign } from './require-study-in-design.ts';

/**
 * A designer uploads a study's definition document while the study is in design (issue 45 item 2).
 * The document is checked by the same zod schema the engine and the browser use: an invalid one is
 * refused (422 `invalid_definition`) with every problem listed — its place as a JSON Pointer, its
 * words in ko and en — and nothing is written. A valid one becomes the study's current version,
 * audited with its content hash (`publishStudyDefinition`).
 */
export async function replaceStudyDefinition(
  db: Kysely<Database>,
  actor: AuditActor,
  studyId: number,
  document: unknown,
): Promise<{ version: string; contentHash: string }> {
  await requireStudyInDesign(db, studyId);
  const definition = await checkPublishableDefinition(db, studyId, document);
  return publishStudyDefinition(db, actor, studyId, definition, { replacingDraft: true });
}
