import { z } from 'zod';

/**
 * The casebook PDF (issue 16 "Data out", item 4): one subject's complete case report form as a PDF —
 * cover, every visit and form with values, units, derived values, queries with their threads, SDV and
 * freeze/lock marks, optionally the audit trail per form, and the investigator's signature
 * manifestation (21 CFR §11.50) or "not signed" / "signature invalidated".
 *
 * Routes:
 *   GET /api/studies/:studyId/subjects/:subjectId/casebook.pdf?lang=ko|en&audit=0|1
 *       anyone who may read the subject (another site's subject → 404); application/pdf
 *   GET /api/studies/:studyId/sites/:siteId/casebooks.zip?lang=ko|en&audit=0|1
 *       DM, ADMIN; a streamed ZIP with one PDF per subject of the site
 * `lang` defaults to the request's Accept-Language; `audit` to 0. Every download is audited
 * (`casebook.exported`).
 */
export const casebookLanguages = ['ko', 'en'] as const;

export const casebookQuerySchema = z.object({
  lang: z.enum(casebookLanguages).optional(),
  audit: z.enum(['0', '1']).optional(),
});
export type CasebookQuery = z.infer<typeof casebookQuerySchema>;

/** The download's address, for the web app's button. */
export function casebookPdfPath(
  studyId: number,
  subjectId: number,
  options: { lang: 'ko' | 'en'; audit: boolean },
): string {
  return `/api/studies/${studyId}/subjects/${subjectId}/casebook.pdf?lang=${options.lang}&audit=${options.audit ? 1 : 0}`;
}

/** The site's casebooks as one ZIP, for the data page's download. */
export function siteCasebooksZipPath(
  studyId: number,
  siteId: number,
  options: { lang: 'ko' | 'en'; audit: boolean },
): string {
  return `/api/studies/${studyId}/sites/${siteId}/casebooks.zip?lang=${options.lang}&audit=${options.audit ? 1 : 0}`;
}
