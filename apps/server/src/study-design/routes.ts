import {
  definitionComparisonQuerySchema,
  definitionComparisonSchema,
  definitionImportConfirmSchema,
  definitionImportPreviewSchema,
  definitionImportRequestSchema,
  definitionUploadResponseSchema,
  definitionVersionListSchema,
  goLiveRequestSchema,
  goLiveResponseSchema,
} from '@cdms/contract';
import { STUDY_DEFINITION_JSON_SCHEMA } from '@cdms/study';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { fileAnswer } from '../http/file-answer.ts';
import { requestLanguage } from '../http/language.ts';
import { studyParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import { attachmentNamedInUtf8, sendDownload } from '../http/send-download.ts';
import type { App } from '../http/types.ts';
import { SIGNING_CREDENTIALS_REFUSAL } from '../signature-state/verify-signing-credentials.ts';
import { definitionDocumentPath, readJsonFile } from '../studies/read-definition-document.ts';
import { compareDefinitionVersions } from './compare-definition-versions.ts';
import { confirmDefinitionImport } from './confirm-definition-import.ts';
import { DEFINITION_BODY_LIMIT_BYTES } from './definition-body-limit.ts';
import { registerDesignDraftRoutes } from './design-draft-routes.ts';
import { exportDefinitionVersionsOdm } from './export-definition-versions-odm.ts';
import { goLive } from './go-live.ts';
import { listDefinitionVersions } from './list-definition-versions.ts';
import { previewDefinitionImport } from './preview-definition-import.ts';
import { renderDefinitionComparisonPdf } from './render-definition-comparison-pdf.ts';
import { replaceStudyDefinition } from './replace-study-definition.ts';

/** Designing a study (issue 45): its definition document while in design, its go-live. */
export function registerStudyDesignRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['study design'];
  // Read once: the file ships with the server and never changes while it runs.
  const jsonSchema = readJsonFile(definitionDocumentPath(STUDY_DEFINITION_JSON_SCHEMA)) as Record<
    string,
    unknown
  >;

  app.get(
    '/api/study-definition-schema',
    {
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'The JSON Schema (draft 2020-12) of a study definition document, for editors and tools',
        response: { 200: z.record(z.string(), z.unknown()) },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'public, max-age=3600').send(jsonSchema),
  );

  app.put(
    '/api/studies/:studyId/definition',
    {
      bodyLimit: DEFINITION_BODY_LIMIT_BYTES,
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary:
          "Upload the study's definition document while the study is in design: it becomes the current version",
        description:
          'The body is the document itself (docs/STUDY-DEFINITION.md, JSON Schema at /api/study-definition-schema). ' +
          'An invalid one is refused with every problem in `error.details.problems` — `path`, a JSON Pointer into ' +
          'the document, and `message` in the language asked for — and nothing is written.',
        params: studyParams,
        body: z.unknown(),
        response: {
          200: definitionUploadResponseSchema,
          ...refusals({
            409: 'The study is not in design (`study_not_in_design`).',
            413: 'The document is larger than 16 MB (`payload_too_large`).',
            422: "The document is not a valid definition (`invalid_definition`, problems listed), or is another study's (`definition_key_mismatch`).",
          }),
        },
      },
    },
    async (request) => replaceStudyDefinition(db, actorOf(request), request.params.studyId, request.body),
  );

  app.post(
    '/api/studies/:studyId/definition-imports/preview',
    {
      bodyLimit: DEFINITION_BODY_LIMIT_BYTES,
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary:
          'Read a design file (REDCap dictionary, ODM metadata, workbook or JSON) and show what it would create and change; nothing is written',
        description:
          'The answer counts the visits, forms, items, code lists and logic the file gives, lists what it adds to, ' +
          'removes from and changes in the current version, and every problem with its line and column ' +
          '(`importable` is false while one is an error). A live study may be previewed; only one in design can take it.',
        params: studyParams,
        body: definitionImportRequestSchema,
        response: {
          200: definitionImportPreviewSchema,
          ...refusals({
            413: 'The file is larger than 16 MB (`payload_too_large`).',
            422: 'The file cannot be read as a design at all — not CSV, XML or a workbook, a zip bomb, XML with entities — (`unreadable_definition_file`, problems in `error.details.problems`).',
          }),
        },
      },
    },
    async (request) =>
      previewDefinitionImport(db, request.params.studyId, request.body, requestLanguage(request)),
  );

  app.post(
    '/api/studies/:studyId/definition-imports',
    {
      bodyLimit: DEFINITION_BODY_LIMIT_BYTES,
      config: { access: { study: 'study.design' } },
      schema: {
        tags,
        summary: "Confirm a previewed import: the file becomes the study's current version (in design only)",
        params: studyParams,
        body: definitionImportConfirmSchema,
        response: {
          200: definitionUploadResponseSchema,
          ...refusals({
            409: 'The study is not in design (`study_not_in_design`), or the import no longer gives what the preview showed (`definition_import_changed`).',
            413: 'The file is larger than 16 MB (`payload_too_large`).',
            422: 'The file has errors (`invalid_definition_import`, listed in `error.details.problems`).',
          }),
        },
      },
    },
    async (request) => confirmDefinitionImport(db, actorOf(request), request.params.studyId, request.body),
  );

  app.get(
    '/api/studies/:studyId/definition-versions/odm',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "Every version of the study's definition as one CDISC ODM 1.3.2 metadata file, a MetaDataVersion each, oldest first",
        description:
          'Validates against the ODM 1.3.2 schema with the `cdms:` extension (packages/study/odm). The design import reads it back (the last version, or the one chosen).',
        params: studyParams,
        response: {
          200: fileAnswer('The ODM metadata file.', ['application/xml']),
          ...refusals({ 404: 'The study has no definition yet (`not_found`).' }),
        },
      },
    },
    async (request, reply) => {
      const { fileName, xml } = await exportDefinitionVersionsOdm(db, request.params.studyId);
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'private, no-store')
        .send(xml);
    },
  );

  app.get(
    '/api/studies/:studyId/definition-versions',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          "Every version of the study's definition, oldest first: when it was written, its content hash and its counts of visits, forms and items",
        description:
          'A version written again while the study was in design is one version, its last text (the one in force). A study without a definition has none.',
        params: studyParams,
        response: { 200: definitionVersionListSchema },
      },
    },
    async (request) => listDefinitionVersions(db, request.params.studyId),
  );

  const comparisonRefusals = refusals({
    404: 'The study has no such version (`definition_version_not_found`, the version named in the message).',
  });

  app.get(
    '/api/studies/:studyId/definition-versions/compare',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'What was added, removed, changed (old → new) and moved from one version of the definition to another: counts per kind and the lines in words',
        description:
          "Visits, forms and their sections, items, checks and outcomes, code lists and their codes, the study's own fields. " +
          '`lang` (ko or en) chooses the language of the lines; it defaults to Accept-Language.',
        params: studyParams,
        querystring: definitionComparisonQuerySchema,
        response: { 200: definitionComparisonSchema, ...comparisonRefusals },
      },
    },
    async (request) => {
      const { from, to, lang } = request.query;
      const language = lang ?? requestLanguage(request);
      return (await compareDefinitionVersions(db, request.params.studyId, { from, to, language })).comparison;
    },
  );

  app.get(
    '/api/studies/:studyId/definition-versions/compare.pdf',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary:
          'The comparison of two versions of the definition as a PDF (ko or en), to file or to sign off',
        params: studyParams,
        querystring: definitionComparisonQuerySchema,
        response: {
          200: fileAnswer('The comparison as PDF.', ['application/pdf']),
          ...comparisonRefusals,
        },
      },
    },
    async (request, reply) => {
      const { from, to, lang } = request.query;
      const language = lang ?? requestLanguage(request);
      const compared = await compareDefinitionVersions(db, request.params.studyId, { from, to, language });
      const pdf = await renderDefinitionComparisonPdf({ ...compared, printedAt: new Date() });
      const fileName = `${compared.study.code}-definition-${from}-to-${to}.pdf`;
      return sendDownload(reply, 'application/pdf', attachmentNamedInUtf8(fileName), pdf);
    },
  );

  app.post(
    '/api/studies/:studyId/go-live',
    {
      config: { access: { study: 'study.administer' } },
      schema: {
        tags,
        summary:
          "An administrator approves the study's design with an e-signature and opens it for data entry",
        params: studyParams,
        body: goLiveRequestSchema,
        response: {
          200: goLiveResponseSchema,
          ...refusals({
            409: 'The study is not in design (`study_not_in_design`), has no definition (`study_definition_required`) or no site (`study_sites_required`).',
            422: SIGNING_CREDENTIALS_REFUSAL,
            429: 'Too many wrong passwords (`too_many_signature_attempts`).',
          }),
        },
      },
    },
    async (request) =>
      goLive(db, principalOf(request), actorOf(request), request.params.studyId, request.body),
  );
  registerDesignDraftRoutes(app, context);
}
