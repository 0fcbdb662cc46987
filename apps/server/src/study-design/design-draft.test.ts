import fs from 'node:fs';
import { TM_PERFORATION_DOCUMENT } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { definitionDocumentPath } from '../studies/read-definition-document.ts';

interface Document {
  key: string;
  version: string;
  forms: Array<{ key: string; label: { ko: string; en: string }; sections: Array<{ items: unknown[] }> }>;
  [key: string]: unknown;
}

/** TMP-2026's document as the designer starts from. */
const firstVersion = () =>
  JSON.parse(fs.readFileSync(definitionDocumentPath(TM_PERFORATION_DOCUMENT), 'utf8')) as Document;

/** The document with its first form renamed in English: one changed line. */
function renamed(document: Document, en: string): Document {
  const copy = structuredClone(document);
  const form = copy.forms[0];
  if (form) form.label = { ...form.label, en };
  return copy;
}

/**
 * The designer's draft (issue 48 items 6 and 7): autosaved revisions with who changed what, two
 * designers saving on one revision (the second gets a 409 naming who and what), a review with a
 * comment on an element, the e-signed approval by a second designer, and a publish that needs it.
 */
describeWithDatabase(
  'study design: the draft saved as it goes, reviewed, approved and published',
  (database) => {
    let app: App;
    let admin: SignedIn;
    let dm: SignedIn;
    let studyId: number;
    const url = () => `/api/studies/${studyId}/design-draft`;

    const call = (who: SignedIn, method: 'GET' | 'POST' | 'PUT', path: string, payload?: unknown) =>
      app.inject({
        method,
        url: path,
        headers: { ...who.headers, 'accept-language': 'en' },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      admin = await signIn(app, 'admin@demo.cdms');
      const created = await call(admin, 'POST', '/api/admin/studies', {
        code: 'DRAFT-2027',
        protocolNumber: 'CDMS-DRAFT-01',
        titleKo: '설계 초안 시험',
        titleEn: 'Draft study',
        sponsor: '',
        kind: 'device',
        content: '',
        members: [{ email: 'dm@demo.cdms', role: 'DM' }],
      });
      expect(created.statusCode).toBe(201);
      studyId = created.json().id;
      dm = await signIn(app, 'dm@demo.cdms');
    });
    afterAll(async () => {
      await app.close();
    });

    it('saves revisions as it goes, each with who saved it and what it changed', async () => {
      expect((await call(dm, 'GET', url())).json()).toMatchObject({
        draft: null,
        changes: [],
        review: null,
        publishedVersion: null,
      });
      const first = await call(dm, 'PUT', url(), { baseRevision: 0, definition: firstVersion() });
      expect(first.statusCode).toBe(200);
      expect(first.json().revision).toBe(1);
      // The same document again writes nothing.
      const same = await call(dm, 'PUT', url(), { baseRevision: 1, definition: firstVersion() });
      expect(same.json().revision).toBe(1);
      const second = await call(dm, 'PUT', url(), {
        baseRevision: 1,
        definition: renamed(firstVersion(), 'Screening (draft)'),
      });
      expect(second.json().revision).toBe(2);
      // A draft in the middle of its edits may have problems: it is kept all the same.
      const halfway = renamed(firstVersion(), 'Screening (draft)');
      halfway.visits = [];
      const third = await call(dm, 'PUT', url(), { baseRevision: 2, definition: halfway });
      expect(third.json().revision).toBe(3);

      const read = (await call(dm, 'GET', url())).json();
      expect(read.draft).toMatchObject({
        revision: 3,
        savedBy: { name: expect.any(String) },
        basedOnHash: null,
      });
      expect(read.changes.map((change: { revision: number }) => change.revision)).toEqual([3, 2, 1]);
      expect(read.changes[1].lineCount).toBe(1);
      expect(read.changes[1].lines[0]).toMatchObject({ kind: 'changed' });
      expect(read.changes[1].lines[0].text).toContain('Screening (draft)');
      // The first save is compared with nothing published: no lines to tell.
      expect(read.changes[2].lineCount).toBeNull();
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'after'])
        .where('study_id', '=', studyId)
        .where('event_type', '=', 'study.design_draft_saved')
        .orderBy('id')
        .execute();
      expect(audit.map((event) => (event.after as { revision: number }).revision)).toEqual([1, 2, 3]);
    });

    it('refuses a save made on an older revision with who saved since and what differs', async () => {
      // Both designers opened revision 3; the administrator saves first.
      const theirs = renamed(firstVersion(), 'Screening (admin)');
      expect((await call(admin, 'PUT', url(), { baseRevision: 3, definition: theirs })).json().revision).toBe(
        4,
      );
      const mine = renamed(firstVersion(), 'Screening (dm)');
      const refused = await call(dm, 'PUT', url(), { baseRevision: 3, definition: mine });
      expect(refused.statusCode).toBe(409);
      const error = refused.json().error;
      expect(error.code).toBe('design_draft_changed');
      expect(error.message).toContain('revision 4');
      expect(error.details).toMatchObject({
        revision: 4,
        savedBy: { name: expect.any(String) },
        lineCount: 1,
      });
      expect(error.details.lines[0].text).toContain('Screening (admin)');
      // Nothing of the refused save was written; merged on revision 4, it is saved.
      expect((await call(dm, 'GET', url())).json().draft.revision).toBe(4);
      expect((await call(dm, 'PUT', url(), { baseRevision: 4, definition: mine })).json().revision).toBe(5);
    });

    it('is reviewed: comments on elements, an e-signed approval by a second designer, needed to publish', async () => {
      const settings = await call(dm, 'PUT', `/api/studies/${studyId}/design-settings`, {
        approvalRequired: true,
      });
      expect(settings.statusCode).toBe(403);
      expect(
        (
          await call(admin, 'PUT', `/api/studies/${studyId}/design-settings`, { approvalRequired: true })
        ).json(),
      ).toEqual({ approvalRequired: true });

      const asked = await call(dm, 'POST', `${url()}/reviews`, { revision: 5 });
      expect(asked.statusCode).toBe(200);
      const reviewId = asked.json().reviewId as number;
      const formKey = firstVersion().forms[0]?.key;
      const comment = await call(admin, 'POST', `${url()}/reviews/${reviewId}/comments`, {
        element: `form:${formKey}`,
        text: 'Keep the English label as in the protocol.',
      });
      expect(comment.statusCode).toBe(200);
      const missing = await call(admin, 'POST', `${url()}/reviews/${reviewId}/comments`, {
        element: 'form:NOPE',
        text: 'x',
      });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().error.code).toBe('design_element_not_found');
      const badElement = await call(admin, 'POST', `${url()}/reviews/${reviewId}/comments`, {
        element: '<script>',
        text: 'x',
      });
      expect(badElement.statusCode).toBe(400);

      // Without an approval the study's setting refuses the publish.
      const early = await call(dm, 'POST', `${url()}/publish`, { revision: 5 });
      expect(early.statusCode).toBe(409);
      expect(early.json().error.code).toBe('design_approval_required');
      // The one who asked cannot approve; a wrong password changes nothing.
      const own = await call(dm, 'POST', `${url()}/reviews/${reviewId}/approval`, {
        revision: 5,
        password: DEMO_PASSWORD,
      });
      expect(own.json().error.code).toBe('design_review_own_request');
      const wrong = await call(admin, 'POST', `${url()}/reviews/${reviewId}/approval`, {
        revision: 5,
        password: 'not-mine',
      });
      expect(wrong.statusCode).toBe(422);
      const stale = await call(admin, 'POST', `${url()}/reviews/${reviewId}/approval`, {
        revision: 4,
        password: DEMO_PASSWORD,
      });
      expect(stale.json().error.code).toBe('design_draft_changed');
      const approved = await call(admin, 'POST', `${url()}/reviews/${reviewId}/approval`, {
        revision: 5,
        password: DEMO_PASSWORD,
      });
      expect(approved.statusCode).toBe(200);
      const read = (await call(dm, 'GET', url())).json();
      expect(read.approvalRequired).toBe(true);
      expect(read.review).toMatchObject({
        id: reviewId,
        revision: 5,
        approval: { revision: 5, contentHash: approved.json().contentHash },
        comments: [
          { element: `form:${formKey}`, text: 'Keep the English label as in the protocol.', revision: 5 },
        ],
      });

      // An edit after the approval: the approval no longer covers the draft.
      const edited = renamed(firstVersion(), 'Screening (edited after approval)');
      expect((await call(dm, 'PUT', url(), { baseRevision: 5, definition: edited })).json().revision).toBe(6);
      expect((await call(dm, 'POST', `${url()}/publish`, { revision: 6 })).json().error.code).toBe(
        'design_approval_required',
      );
      // Back to what was approved (revision 7, the same content), then published.
      expect(
        (
          await call(dm, 'PUT', url(), {
            baseRevision: 6,
            definition: renamed(firstVersion(), 'Screening (dm)'),
          })
        ).json().revision,
      ).toBe(7);
      const published = await call(dm, 'POST', `${url()}/publish`, { revision: 7 });
      expect(published.statusCode).toBe(200);
      expect(published.json().contentHash).toBe(approved.json().contentHash);
      const after = (await call(dm, 'GET', url())).json();
      expect(after).toMatchObject({ draft: null, changes: [], review: null });
      const current = await call(dm, 'GET', `/api/studies/${studyId}/definition`);
      expect(after.publishedVersion).toBe(current.json().version);
      expect(current.json().definition.forms[0].label.en).toBe('Screening (dm)');
      // An edit made on the published draft finds it gone.
      const gone = await call(admin, 'PUT', url(), { baseRevision: 7, definition: firstVersion() });
      expect(gone.statusCode).toBe(409);
      expect(gone.json().error.code).toBe('design_draft_gone');
      // The next edit starts a new draft on the published version, and tells what it changed from it.
      const next = await call(dm, 'PUT', url(), {
        baseRevision: 0,
        definition: renamed(firstVersion(), 'Next'),
      });
      expect(next.json().revision).toBe(1);
      const nextRead = (await call(dm, 'GET', url())).json();
      expect(nextRead.draft.basedOnHash).toBe(approved.json().contentHash);
      expect(nextRead.changes[0].lineCount).toBe(1);
      // A second designer who had not seen that draft is told someone started it.
      const late = await call(admin, 'PUT', url(), { baseRevision: 0, definition: firstVersion() });
      expect(late.json().error.code).toBe('design_draft_changed');
    });

    it('refuses a draft with definition problems at publish, listing them', async () => {
      await call(admin, 'PUT', `/api/studies/${studyId}/design-settings`, { approvalRequired: false });
      const broken = renamed(firstVersion(), 'Broken');
      broken.visits = [];
      const saved = await call(dm, 'PUT', url(), { baseRevision: 1, definition: broken });
      expect(saved.json().revision).toBe(2);
      const refused = await call(dm, 'POST', `${url()}/publish`, { revision: 2 });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('invalid_definition');
      expect(refused.json().error.details.problems.length).toBeGreaterThan(0);
    });
  },
  { seed: 'demo' },
);
