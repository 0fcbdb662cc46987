import {
  addCommentRequestSchema,
  auditEntrySchema,
  auditQuerySchema,
  commentSchema,
  createSubjectRequestSchema,
  formDataResponseSchema,
  overviewResponseSchema,
  paramIdSchema,
  resetFormRequestSchema,
  saveFormRequestSchema,
  subjectSummarySchema,
} from '@cdms/contract';
import { getFormLayout, isSigningForm } from '@cdms/study';
import { z } from 'zod';
import type { AppContext } from '../app-context.ts';
import { recordAudit } from '../audit/audit-log.ts';
import { subjectAuditScope } from '../audit/subject-audit-scope.ts';
import { actorOf, principalOf } from '../auth/authenticate.ts';
import type { Principal } from '../auth/principal.ts';
import { mayKnowGroup } from '../blinding/may-know-group.ts';
import { subjectBlinding } from '../blinding/subject-blinding.ts';
import { inTransaction } from '../db/in-transaction.ts';
import { withOverviewMarks } from '../holds/read-extensions.ts';
import { AppError } from '../http/errors.ts';
import { studyParams, subjectParams } from '../http/path-params.ts';
import { refusals } from '../http/refusals.ts';
import type { App } from '../http/types.ts';
import { HOLD_REFUSAL, refuseWriteUnderHolds, subjectTarget } from '../locks/holds-in-force.ts';
import { findSubjectAndDefinitionInScope, findSubjectInScope } from '../subjects/subject-access.ts';
import { TRAINING_REFUSAL } from '../training-gate/training-gate.ts';
import { requireVisitOfSubject } from '../unscheduled-visits/unscheduled-visits.ts';
import { createSubject } from './create-subject.ts';
import { writeForm } from './form-data.ts';
import { formData, listComments, subjectAudit, subjectOverview } from './form-queries.ts';
import { registerSubjectListRoutes } from './list-routes.ts';
import { saveForm } from './save-form.ts';

/** Path ids: canonical positive decimals (no `0x13`, `1.6e1`, `16.0`), ≤ 2^31 − 1. */
const id = paramIdSchema;
const key = z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/);
/** A visit key: a definition key, or `unscheduled-<n>` (issue 19). */
const visitKey = z.string().regex(/^[A-Za-z][A-Za-z0-9_-]{0,49}$/);
const formParams = z.object({ studyId: id, subjectId: id, visitKey, formKey: key });

/** Subjects and their form data (issue "Data capture"). */
export function registerSubjectRoutes(app: App, context: AppContext): void {
  const { db } = context.database;
  const tags = ['subjects'];
  const NO_DEFINITION = 'The study has no definition yet (`not_found`).';
  // `formInScope`: the form must be one of the visit's, and an unscheduled visit one the subject has.
  const NO_FORM = 'No such visit or form for the subject, or the study has no definition yet (`not_found`).';

  async function formInScope(
    principal: Principal,
    params: z.infer<typeof formParams>,
    action: 'subject.read' | 'subject.write',
  ) {
    const found = await findSubjectAndDefinitionInScope(
      db,
      principal,
      params.studyId,
      params.subjectId,
      action,
    );
    if (!getFormLayout(found.definition, params.visitKey, params.formKey))
      throw new AppError(404, 'not_found');
    await requireVisitOfSubject(db, found.subject.id, params.visitKey);
    return found;
  }

  // The list (filters, columns, paging), its download and deleting a subject: list-routes.ts.
  registerSubjectListRoutes(app, context);

  app.post(
    '/api/studies/:studyId/subjects',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Register a subject (site staff): screening number assigned by the server',
        params: studyParams,
        body: createSubjectRequestSchema,
        response: {
          201: subjectSummarySchema,
          ...refusals({
            403: `The site is not one where the caller enters data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NO_DEFINITION,
            409: 'The study is still in design (`study_in_design`).',
            422: 'The consent date is in the future (`consent_date_in_future`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      return reply
        .status(201)
        .send(
          await createSubject(
            db,
            principalOf(request),
            actorOf(request),
            request.params.studyId,
            request.body,
          ),
        );
    },
  );

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/overview',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Visit × form matrix with statuses',
        params: subjectParams,
        response: { 200: overviewResponseSchema, ...refusals({ 404: NO_DEFINITION }) },
      },
    },
    async (request) => {
      // The subject's own definition version: after an amendment's publication, the one it is on.
      const { subject, ...current } = await findSubjectAndDefinitionInScope(
        db,
        principalOf(request),
        request.params.studyId,
        request.params.subjectId,
      );
      const overview = await subjectOverview(
        db,
        principalOf(request),
        subject,
        current.definition,
        current.version,
      );
      const marked = await withOverviewMarks(db, principalOf(request), subject, current.definition, overview);
      return { ...marked, blinding: await subjectBlinding(db, principalOf(request), subject) };
    },
  );

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "One form's values, derived values, status, version, queries and comments",
        params: formParams,
        response: { 200: formDataResponseSchema, ...refusals({ 404: NO_FORM }) },
      },
    },
    async (request) => {
      const { subject, definition, version } = await formInScope(
        principalOf(request),
        request.params,
        'subject.read',
      );
      return formData(
        db,
        principalOf(request),
        subject,
        definition,
        version,
        request.params.visitKey,
        request.params.formKey,
      );
    },
  );

  app.put(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey',
    {
      // A saved form is one save in the metrics (`cdms_form_saves_total`, metrics/routes.ts).
      config: { access: { study: 'member' }, countedAs: 'formSave' },
      schema: {
        tags,
        summary:
          'Save a form: 409 on a stale version, 422 on bad values, a hard check or a change without reason',
        params: formParams,
        body: saveFormRequestSchema,
        response: {
          200: formDataResponseSchema,
          ...refusals({
            403: `The role may not enter this subject's data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NO_FORM,
            409: 'The form changed since it was read: its version is not the one sent (`version_conflict`); read it again.',
            422:
              'Values the form does not accept (`invalid_values`, `details.items`), a hard check that fails (`hard_check_failed`), ' +
              'a change of saved data without its reason (`reason_required`, `details` names the items), a photo not of this form ' +
              '(`photo_not_of_form`), or the signature form, which is not saved by hand (`signature_form_read_only`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { visitKey, formKey } = request.params;
      const saved = await saveForm(db, principal, actorOf(request), {
        ...request.params,
        request: request.body,
        withSurroundings: true,
      });
      return formData(
        db,
        principal,
        saved.subject,
        saved.definition,
        saved.definitionVersion,
        visitKey,
        formKey,
        saved,
      );
    },
  );

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/reset',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "Clear a form's values, with a reason (audited)",
        params: formParams,
        body: resetFormRequestSchema,
        response: {
          200: formDataResponseSchema,
          ...refusals({
            403: `The role may not enter this subject's data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: NO_FORM,
            409: 'The form changed while it was being cleared (`version_conflict`).',
            422: 'The signature form is not cleared by hand (`signature_form_read_only`).',
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request) => {
      const principal = principalOf(request);
      const { subject, definition, version } = await formInScope(principal, request.params, 'subject.write');
      const { visitKey, formKey } = request.params;
      // The signing form records the investigator's signature: only signing fills it.
      if (isSigningForm(definition, visitKey, formKey)) throw new AppError(422, 'signature_form_read_only');
      await inTransaction(db, async (trx) => {
        await writeForm(trx, {
          subject,
          definition,
          definitionVersion: version,
          visitKey,
          formKey,
          values: {},
          expectedVersion: request.body.version,
          reasons: {},
          reasonForAll: request.body.reason,
          actor: actorOf(request),
        });
        await recordAudit(trx, actorOf(request), {
          type: 'data.form_reset',
          entityType: 'form',
          entityId: `${visitKey}.${formKey}`,
          ...subjectAuditScope(subject),
          reason: request.body.reason,
        });
      });
      return formData(db, principal, subject, definition, version, visitKey, formKey);
    },
  );

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/comments',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "A form's section comments",
        params: formParams,
        response: { 200: z.object({ comments: z.array(commentSchema) }), ...refusals({ 404: NO_FORM }) },
      },
    },
    async (request) => {
      const { subject } = await formInScope(principalOf(request), request.params, 'subject.read');
      return {
        comments: await listComments(db, subject.id, request.params.visitKey, request.params.formKey),
      };
    },
  );

  app.post(
    '/api/studies/:studyId/subjects/:subjectId/forms/:visitKey/:formKey/comments',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: 'Add a comment to a form section (≤ 3500 characters)',
        params: formParams,
        body: addCommentRequestSchema,
        response: {
          201: commentSchema,
          ...refusals({
            403: `The role may not enter this subject's data (\`forbidden\`). ${TRAINING_REFUSAL}`,
            404: `${NO_FORM} Or no such section in the form.`,
            423: HOLD_REFUSAL,
          }),
        },
      },
    },
    async (request, reply) => {
      const principal = principalOf(request);
      const { subject, definition } = await formInScope(principal, request.params, 'subject.write');
      const { visitKey, formKey } = request.params;
      const layout = getFormLayout(definition, visitKey, formKey);
      if (!layout?.sections.some((section) => section.key === request.body.sectionKey))
        throw new AppError(404, 'not_found');
      const comment = await inTransaction(db, async (trx) => {
        await refuseWriteUnderHolds(trx, 'form.comment', subjectTarget(subject, { visitKey, formKey }));
        const row = await trx
          .insertInto('form_comments')
          .values({
            subject_id: subject.id,
            visit_key: visitKey,
            form_key: formKey,
            section_key: request.body.sectionKey,
            text: request.body.text,
            created_by: principal.user.id,
          })
          .returningAll()
          .executeTakeFirstOrThrow();
        await recordAudit(trx, actorOf(request), {
          type: 'comment.added',
          entityType: 'comment',
          entityId: `${visitKey}.${formKey}.${request.body.sectionKey}`,
          ...subjectAuditScope(subject),
          after: { text: request.body.text },
        });
        return row;
      });
      return reply.status(201).send({
        id: comment.id,
        sectionKey: comment.section_key,
        text: comment.text,
        author: principal.user.name,
        createdAt: comment.created_at.toISOString(),
      });
    },
  );

  app.get(
    '/api/studies/:studyId/subjects/:subjectId/audit',
    {
      config: { access: { study: 'member' } },
      schema: {
        tags,
        summary: "The subject's history from the audit trail (?visit=&form=&item=)",
        params: subjectParams,
        querystring: auditQuerySchema,
        response: { 200: z.object({ entries: z.array(auditEntrySchema) }) },
      },
    },
    async (request) => {
      const subject = await findSubjectInScope(
        db,
        principalOf(request),
        request.params.studyId,
        request.params.subjectId,
      );
      const mayKnow = await mayKnowGroup(db, principalOf(request), request.params.studyId, subject);
      return { entries: await subjectAudit(db, subject.id, request.query, mayKnow) };
    },
  );
}
