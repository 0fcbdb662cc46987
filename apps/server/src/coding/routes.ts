import {
  CODING_UPLOAD_MAX_BYTES,
  codeAssignmentRequestSchema,
  codingAssignmentParamsSchema,
  codingAssignmentSchema,
  codingDictionariesResponseSchema,
  codingDictionaryParamsSchema,
  codingParamsSchema,
  codingQueryRequestSchema,
  codingQueryResponseSchema,
  codingQueueQuerySchema,
  codingQueueResponseSchema,
  codingSearchQuerySchema,
  codingSearchResponseSchema,
  codingUpgradePreviewSchema,
  codingUpgradeResponseSchema,
  codingUploadQuerySchema,
  codingUploadResponseSchema,
} from '@cdms/contract';
import type { AppContext } from '../app-context.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { type UploadRule, uploadRefusals, withUpload } from '../uploads/receive-upload.ts';
import { applyUpgrade } from './apply-upgrade.ts';
import { codeAssignment } from './code-assignment.ts';
import { compareWithVersion, presentComparison } from './compare-versions.ts';
import { listCodingQueue } from './list-coding-queue.ts';
import { listDictionaries } from './list-dictionaries.ts';
import { searchDictionary } from './search-dictionary.ts';
import { sendCodingQuery } from './send-coding-query.ts';
import { uploadDictionary } from './upload-dictionary.ts';

const CODERS = 'The caller does not code in this study (`forbidden`; `coding.code`).';
const KEEPERS = 'The caller does not keep the coding dictionaries (`forbidden`; `coding.dictionaries`).';
const NO_ASSIGNMENT = 'No such verbatim to code in the study (`not_found`).';
const NO_DICTIONARY = 'No such dictionary version in the study (`not_found`).';
const CHANGED = 'The verbatim changed since it was read (`coding_changed`).';

const dictionaryUpload: UploadRule = {
  field: 'upload',
  maxBytes: CODING_UPLOAD_MAX_BYTES,
  tooLarge: 'coding_file_too_large',
};

/** Issue 51 item 2: the coding queue, dictionary search, coding, queries back and dictionary versions. */
export function registerCodingRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['coding'];
  const base = '/api/studies/:studyId/coding';

  app.get(
    `${base}/queue`,
    {
      config: { access: { study: 'coding.code' } },
      schema: {
        tags,
        summary: 'A page of the verbatims to code and coded: status, kind, site, part of the verbatim',
        params: codingParamsSchema,
        querystring: codingQueueQuerySchema,
        response: { 200: codingQueueResponseSchema, ...refusals({ 403: CODERS }) },
      },
    },
    async (request) => listCodingQueue(db, request.params.studyId, request.query),
  );

  app.get(
    `${base}/search`,
    {
      config: { access: { study: 'coding.code' } },
      schema: {
        tags,
        summary:
          "The active version's current terms whose name or PT name contains the text, with their paths",
        params: codingParamsSchema,
        querystring: codingSearchQuerySchema,
        response: { 200: codingSearchResponseSchema, ...refusals({ 403: CODERS }) },
      },
    },
    async (request) => searchDictionary(db, request.params.studyId, request.query.kind, request.query.q),
  );

  app.post(
    `${base}/assignments/:assignmentId/code`,
    {
      config: { access: { study: 'coding.code' } },
      schema: {
        tags,
        summary: 'Code one verbatim with a current term of the active version (audited)',
        params: codingAssignmentParamsSchema,
        body: codeAssignmentRequestSchema,
        response: {
          200: codingAssignmentSchema,
          ...refusals({
            403: CODERS,
            404: NO_ASSIGNMENT,
            409: CHANGED,
            422: 'No active version of the kind (`coding_no_dictionary`), or the code is not a current term of it (`coding_code_unknown`).',
          }),
        },
      },
    },
    async (request) =>
      codeAssignment(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.assignmentId,
        request.body,
      ),
  );

  app.post(
    `${base}/assignments/:assignmentId/query`,
    {
      config: { access: { study: 'coding.code' } },
      schema: {
        tags,
        summary: 'Send an unclear verbatim back to the site as a query on its item (audited, notified)',
        params: codingAssignmentParamsSchema,
        body: codingQueryRequestSchema,
        response: {
          201: codingQueryResponseSchema,
          ...refusals({
            403: `${CODERS} Or a hold forbids queries on the subject.`,
            404: NO_ASSIGNMENT,
            409: `${CHANGED} Or a coding query is already open (\`coding_query_open\`).`,
            422: 'The verbatim is no longer an item of its form (`query_item_unknown`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const answer = await sendCodingQuery(
        db,
        principalOf(request),
        actorOf(request),
        request.params.studyId,
        request.params.assignmentId,
        request.body,
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    `${base}/dictionaries`,
    {
      config: { access: { study: 'coding.dictionaries' } },
      schema: {
        tags,
        summary: "The study's loaded dictionary versions and its synonym list",
        params: codingParamsSchema,
        response: { 200: codingDictionariesResponseSchema, ...refusals({ 403: KEEPERS }) },
      },
    },
    async (request) => listDictionaries(db, request.params.studyId),
  );

  app.post(
    `${base}/dictionaries`,
    {
      config: { access: { study: 'coding.dictionaries' } },
      schema: {
        tags,
        summary:
          'Load a dictionary version (multipart field "upload": a zip of the MedDRA ASCII or WHODrug B3 files) or the synonym CSV (audited)',
        consumes: ['multipart/form-data'],
        params: codingParamsSchema,
        querystring: codingUploadQuerySchema,
        response: {
          201: codingUploadResponseSchema,
          ...refusals({
            ...uploadRefusals(dictionaryUpload, 'dictionary file', 'not a multipart upload'),
            403: KEEPERS,
            409: 'The version is already loaded (`coding_version_exists`).',
            422: 'A file does not fit its layout, naming file and line (`coding_file_invalid`), or the version is not known (`coding_version_missing`).',
          }),
        },
      },
    },
    async (request, reply) => {
      const actor = actorOf(request);
      const userId = principalOf(request).user.id;
      const answer = await withUpload(request, dictionaryUpload, async (upload) =>
        uploadDictionary(db, { ...actor, userId }, request.params.studyId, {
          kind: request.query.kind,
          version: request.query.version,
          fileName: upload.fileName,
          bytes: await upload.read(0, upload.size),
        }),
      );
      return reply.status(201).send(answer);
    },
  );

  app.get(
    `${base}/dictionaries/:dictionaryId/upgrade`,
    {
      config: { access: { study: 'coding.dictionaries' } },
      schema: {
        tags,
        summary: 'What switching to this loaded version changes for the coded verbatims (nothing is written)',
        params: codingDictionaryParamsSchema,
        response: { 200: codingUpgradePreviewSchema, ...refusals({ 403: KEEPERS, 404: NO_DICTIONARY }) },
      },
    },
    async (request) =>
      presentComparison(await compareWithVersion(db, request.params.studyId, request.params.dictionaryId)),
  );

  app.post(
    `${base}/dictionaries/:dictionaryId/upgrade`,
    {
      config: { access: { study: 'coding.dictionaries' } },
      schema: {
        tags,
        summary: 'Switch to this loaded version and recode: non-current codes back to the queue (audited)',
        params: codingDictionaryParamsSchema,
        response: {
          200: codingUpgradeResponseSchema,
          ...refusals({
            403: KEEPERS,
            404: NO_DICTIONARY,
            409: 'The version is already the active one (`coding_already_active`).',
          }),
        },
      },
    },
    async (request) =>
      applyUpgrade(db, actorOf(request), request.params.studyId, request.params.dictionaryId),
  );
}
