import { once } from 'node:events';
import { buffer } from 'node:stream/consumers';
import { ZipArchive } from 'archiver';
import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { authorize } from '../auth/authorize.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import { type CasebookOptions, casebookFileName, loadCasebookPrint } from './export-subject-casebook.ts';
import { loadCasebooks } from './load-casebooks.ts';
import { renderCasebookPdf } from './render-casebook-pdf.ts';

/** Subjects read per batch: a batch's data are in memory at once, its PDFs one at a time. */
const BATCH_SIZE = 20;

/**
 * `GET …/sites/:siteId/casebooks.zip`: every subject's casebook of one site as a ZIP (DM, ADMIN,
 * who may take data out). The ZIP streams: subjects are read in batches (keyset on the id), each PDF
 * is rendered, handed to the archive, and the next one is only rendered once the archive has taken
 * it in — so a slow client holds the server back instead of filling its memory. The export is
 * audited with the number of subjects before the first byte leaves.
 */
export async function exportSiteCasebooks(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  studyId: number,
  siteId: number,
  options: CasebookOptions,
): Promise<{ zip: ZipArchive; fileName: string; subjects: number }> {
  authorize(principal, 'data.export', { studyId });
  const print = await loadCasebookPrint(db, principal, studyId, siteId, options);
  const { header, printedAt } = print;
  const counted = await db
    .selectFrom('subjects')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('study_id', '=', studyId)
    .where('site_id', '=', siteId)
    .where('deleted_at', 'is', null)
    .executeTakeFirstOrThrow();
  const subjects = Number(counted.count);
  await recordAudit(db, actor, {
    type: 'casebook.exported',
    entityType: 'site',
    entityId: siteId,
    studyId,
    siteId,
    after: {
      format: 'ZIP of PDF',
      scope: 'site',
      siteCode: header.siteCode,
      language: options.language,
      withAudit: options.withAudit,
      subjects,
    },
  });

  const zip = new ZipArchive({ zlib: { level: 6 } });
  const fill = async () => {
    let afterSubjectId = 0;
    for (;;) {
      const batch = await loadCasebooks(db, {
        studyId,
        siteId,
        afterSubjectId,
        limit: BATCH_SIZE,
        audit: options.withAudit,
      });
      for (const subject of batch) {
        const pdf = await renderCasebookPdf({
          ...print,
          definition: await print.definitionOf(subject.definitionVersion),
          subject,
        });
        const content = await buffer(pdf);
        // A client that went away closes the archive: stop rendering rather than wait for ever.
        if (zip.destroyed) return;
        const taken = Promise.race([once(zip, 'entry'), once(zip, 'close')]);
        zip.append(content, {
          name: casebookFileName(header.studyCode, subject.screeningNumber),
          date: printedAt,
        });
        await taken;
        if (zip.destroyed) return;
      }
      const last = batch[batch.length - 1];
      if (!last || batch.length < BATCH_SIZE) break;
      afterSubjectId = last.id;
    }
    await zip.finalize();
  };
  // Errors after the first byte can no longer become a JSON answer: the archive is aborted, so the
  // client sees a broken download rather than a ZIP that looks complete.
  fill().catch((error: unknown) => {
    if (!zip.destroyed) zip.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  const safeSite = header.siteCode.replace(/[^A-Za-z0-9_-]+/g, '_');
  const safeStudy = header.studyCode.replace(/[^A-Za-z0-9_-]+/g, '_');
  return { zip, fileName: `casebooks-${safeStudy}-${safeSite}.zip`, subjects };
}
