import { writeOdmMetadataVersions } from '@cdms/study';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';
import { studyDefinitionVersions } from '../studies/study-definitions.ts';

/**
 * `GET …/definition-versions/odm`: every version of a study's definition as one CDISC ODM 1.3.2
 * metadata file, one MetaDataVersion each, oldest first (issue 47 item 2) — the design's history as
 * other systems read it, and as the import reads back any one version of it. Nothing is audited: a
 * study's design is readable by every member (as `GET …/definition`) and holds no subject data.
 */
export async function exportDefinitionVersionsOdm(
  db: Kysely<Database>,
  studyId: number,
): Promise<{ fileName: string; xml: string }> {
  const study = await db.selectFrom('studies').select('code').where('id', '=', studyId).executeTakeFirst();
  if (!study) throw new AppError(404, 'not_found');
  const versions = await studyDefinitionVersions(db, studyId);
  if (versions.length === 0) throw new AppError(404, 'not_found');
  return {
    fileName: `${study.code}-definition-versions-odm.xml`,
    xml: writeOdmMetadataVersions(versions.map((version) => version.definition)),
  };
}
