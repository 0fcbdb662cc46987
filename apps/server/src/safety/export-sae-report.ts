import type { Kysely } from 'kysely';
import type { AuditActor } from '../audit/audit-events.ts';
import { recordAudit } from '../audit/audit-log.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/schema.ts';
import type { Language } from '../http/language.ts';
import { renderE2bXml } from './e2b-xml.ts';
import { loadSaeCase } from './load-sae-case.ts';
import { renderCiomsPdf } from './render-cioms-pdf.ts';
import { saeAuditScope } from './sae-access.ts';

interface ExportInput {
  studyId: number;
  reportId: number;
  version: number | undefined;
  language: Language;
}

/** `GET …/sae-reports/:reportId/cioms.pdf`: one version as a CIOMS-I-style form; audited before the first byte. */
export async function exportCiomsPdf(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: ExportInput,
): Promise<{ pdf: PDFKit.PDFDocument; fileName: string }> {
  const sae = await loadSaeCase(db, principal, input.studyId, input.reportId, input.version);
  await recordAudit(db, actor, {
    type: 'sae.exported',
    ...saeAuditScope(sae.report),
    after: { format: 'cioms', version: sae.version.version, language: input.language },
  });
  const pdf = await renderCiomsPdf(sae, input.language);
  return { pdf, fileName: `${sae.study.code}_SAE_${sae.report.id}_v${sae.version.version}_CIOMS.pdf` };
}

/** `GET …/sae-reports/:reportId/e2b.xml`: one version as an E2B(R3)-shaped ICSR; audited. */
export async function exportE2bXml(
  db: Kysely<Database>,
  principal: Principal,
  actor: AuditActor,
  input: ExportInput,
): Promise<{ xml: string; fileName: string }> {
  const sae = await loadSaeCase(db, principal, input.studyId, input.reportId, input.version);
  await recordAudit(db, actor, {
    type: 'sae.exported',
    ...saeAuditScope(sae.report),
    after: { format: 'e2b', version: sae.version.version },
  });
  return {
    xml: renderE2bXml(sae, `CDMS-${sae.site.institutionNumber}`),
    fileName: `${sae.study.code}_SAE_${sae.report.id}_v${sae.version.version}_E2B.xml`,
  };
}
