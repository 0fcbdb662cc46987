import type { AmendmentResponse } from '@cdms/contract';
import type { StudyDefinition } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * Amendments of a live study (issue 49 items 1 and 2): opened by a DM with a number, a reason and the
 * sites' approval dates; the next version drafted in the design draft; the change set asks what it
 * cannot guess until it is declared; discarded with a reason. On the demo's live study (TMP-2026).
 */
describeWithDatabase(
  'amendments: opened, declared and discarded on a live study',
  (database) => {
    let app: App;
    let dm: SignedIn;
    let crc: SignedIn;
    let studyId: number;
    let siteIds: number[];
    let live: StudyDefinition;

    const call = (who: SignedIn, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
      app.inject({
        method,
        url,
        headers: { ...who.headers, 'accept-language': 'en' },
        ...(payload === undefined ? {} : { payload: payload as object }),
      });
    const base = () => `/api/studies/${studyId}/amendments`;
    const read = async (id: number) => (await call(dm, 'GET', `${base()}/${id}`)).json() as AmendmentResponse;
    const draftRevision = async () =>
      (await call(dm, 'GET', `/api/studies/${studyId}/design-draft`)).json().draft.revision as number;

    /** An item of the live version no rule, check or role names: renaming it touches nothing else. */
    function unreferencedItem(): { form: string; item: string } {
      const text = JSON.stringify(live);
      for (const form of live.forms)
        for (const section of form.sections) {
          if (section.repeating) continue;
          for (const item of section.items)
            if (!item.derive && text.split(`"${item.key}"`).length === 2)
              return { form: form.key, item: item.key };
        }
      throw new Error('every item is referenced');
    }

    function renamedDraft(form: string, from: string, to: string): StudyDefinition {
      const next = structuredClone(live);
      next.version = '1.1.0';
      for (const section of next.forms.find((entry) => entry.key === form)?.sections ?? [])
        for (const item of section.items) if (item.key === from) item.key = to;
      return next;
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      dm = await signIn(app, 'dm@demo.cdms');
      crc = await signIn(app, 'crc@demo.cdms');
      const study = await database()
        .db.selectFrom('studies')
        .select('id')
        .where('status', '=', 'active')
        .orderBy('id')
        .executeTakeFirstOrThrow();
      studyId = study.id;
      siteIds = (
        await database()
          .db.selectFrom('sites')
          .select('id')
          .where('study_id', '=', studyId)
          .orderBy('id')
          .execute()
      ).map((site) => site.id);
      live = (await call(dm, 'GET', `/api/studies/${studyId}/definition`)).json().definition;
    });
    afterAll(async () => {
      await app.close();
    });

    it('opens one draft at a time, with the next version in the design draft', async () => {
      expect((await call(dm, 'GET', base())).json()).toEqual({ amendments: [] });
      const [first, second] = siteIds;
      const opened = await call(dm, 'POST', base(), {
        number: 'AM-01',
        reason: 'Tinnitus VAS added to the follow-up visits',
        sites: [{ siteId: first, effectiveOn: '2026-12-01' }],
      });
      expect(opened.statusCode).toBe(201);
      const { id } = opened.json();
      const amendment = await read(id);
      expect(amendment.amendment).toMatchObject({
        number: 'AM-01',
        status: 'draft',
        fromVersion: live.version,
        toVersion: '1.0.1',
        openedBy: { name: expect.any(String) },
        publishedBy: null,
      });
      // Every site is listed; the one not named has no date yet.
      const byId = [...amendment.amendment.sites].sort((a, b) => a.siteId - b.siteId);
      expect(byId.map((site) => [site.siteId, site.effectiveOn])).toEqual(
        siteIds.map((siteId) => [siteId, siteId === first ? '2026-12-01' : null]),
      );
      expect(second).toBeDefined();
      // Nothing changed yet but the version: nothing asked, nothing refused.
      expect(amendment.changeSet).toEqual({ changes: [], questions: [], refusals: [], ready: true });
      expect(amendment.draftRevision).toBe(await draftRevision());

      const again = await call(dm, 'POST', base(), { number: 'AM-02', reason: 'Another', sites: [] });
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('amendment_draft_open');
      // Site staff do not design.
      expect((await call(crc, 'GET', base())).statusCode).toBeGreaterThanOrEqual(403);
    });

    it('asks whether a removed and an added item is a rename, until it is declared', async () => {
      const [{ id }] = (await call(dm, 'GET', base())).json().amendments;
      const { form, item } = unreferencedItem();
      const saved = await call(dm, 'PUT', `/api/studies/${studyId}/design-draft`, {
        baseRevision: await draftRevision(),
        definition: renamedDraft(form, item, `${item}Renamed`),
      });
      expect(saved.statusCode).toBe(200);
      const asked = await read(id);
      expect(asked.changeSet?.ready).toBe(false);
      expect(asked.changeSet?.questions).toEqual([
        expect.objectContaining({
          code: 'itemRenameOrReplace',
          form,
          removed: item,
          added: `${item}Renamed`,
          element: `form:${form}/item:${item}Renamed`,
        }),
      ]);

      const fields = { number: 'AM-01', reason: 'Tinnitus VAS added', sites: [] };
      const declared = await call(dm, 'PUT', `${base()}/${id}`, {
        ...fields,
        declarations: { itemRenames: [{ form, from: item, to: `${item}Renamed` }] },
      });
      expect(declared.statusCode).toBe(200);
      const answered = await read(id);
      expect(answered.changeSet?.questions).toEqual([]);
      expect(answered.changeSet?.changes).toEqual([
        expect.objectContaining({ kind: 'itemRenamed', element: `form:${form}/item:${item}Renamed` }),
      ]);
      expect(answered.changeSet?.ready).toBe(true);
      expect(answered.amendment.reason).toBe('Tinnitus VAS added');
      // The sites left out now have no date.
      expect(answered.amendment.sites.every((site) => site.effectiveOn === null)).toBe(true);
    });

    it('refuses bad declarations and sites, changing nothing', async () => {
      const [{ id }] = (await call(dm, 'GET', base())).json().amendments;
      const before = await read(id);
      const fields = { number: 'AM-01', reason: 'x', sites: [] };
      const badDeclarations = await call(dm, 'PUT', `${base()}/${id}`, {
        ...fields,
        declarations: { itemRenames: [{ form: 'A B', from: 1 }] },
      });
      expect(badDeclarations.statusCode).toBe(422);
      expect(badDeclarations.json().error.code).toBe('invalid_declarations');
      const foreignSite = await call(dm, 'PUT', `${base()}/${id}`, {
        ...fields,
        declarations: {},
        sites: [{ siteId: 999_999, effectiveOn: null }],
      });
      expect(foreignSite.json().error.code).toBe('unknown_site');
      const twice = await call(dm, 'PUT', `${base()}/${id}`, {
        ...fields,
        declarations: {},
        sites: [
          { siteId: siteIds[0], effectiveOn: null },
          { siteId: siteIds[0], effectiveOn: '2027-01-01' },
        ],
      });
      expect(twice.json().error.code).toBe('duplicate_site');
      expect(await read(id)).toEqual(before);
    });

    it('refuses a version the study has already', async () => {
      const [{ id }] = (await call(dm, 'GET', base())).json().amendments;
      await call(dm, 'PUT', `/api/studies/${studyId}/design-draft`, {
        baseRevision: await draftRevision(),
        definition: { ...structuredClone(live) },
      });
      const refused = await read(id);
      expect(refused.changeSet?.ready).toBe(false);
      // (The rename declared before names an item the draft no longer has: refused too.)
      expect(refused.changeSet?.refusals).toContainEqual({
        code: 'versionNotNew',
        element: 'study',
        text: `Version ${live.version} exists already: give the draft a new version number in the study settings.`,
      });
    });

    it('discards a draft with a reason: the record stays, the draft goes, the number is free again', async () => {
      const [{ id }] = (await call(dm, 'GET', base())).json().amendments;
      const discarded = await call(dm, 'POST', `${base()}/${id}/discard`, { reason: 'Sponsor withdrew it' });
      expect(discarded.statusCode).toBe(200);
      expect((await read(id)).amendment.status).toBe('discarded');
      expect((await call(dm, 'GET', `/api/studies/${studyId}/design-draft`)).json().draft).toBeNull();
      // A live study without an amendment has no draft to save.
      const save = await call(dm, 'PUT', `/api/studies/${studyId}/design-draft`, {
        baseRevision: 0,
        definition: live,
      });
      expect(save.json().error.code).toBe('study_not_in_design');
      const changeDiscarded = await call(dm, 'PUT', `${base()}/${id}`, {
        number: 'AM-01',
        reason: 'x',
        sites: [],
        declarations: {},
      });
      expect(changeDiscarded.json().error.code).toBe('amendment_not_draft');
      const reopened = await call(dm, 'POST', base(), { number: 'am-01', reason: 'Again', sites: [] });
      expect(reopened.statusCode).toBe(201);
      const taken = await call(dm, 'PUT', `${base()}/${reopened.json().id}`, {
        number: 'AM-01',
        reason: 'x',
        sites: [],
        declarations: {},
      });
      expect(taken.statusCode).toBe(200);

      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['event_type', 'reason'])
        .where('entity_type', '=', 'study_amendment')
        .orderBy('id')
        .execute();
      expect(audit.map((event) => event.event_type)).toEqual([
        'study.amendment_opened',
        'study.amendment_changed',
        'study.amendment_discarded',
        'study.amendment_opened',
        'study.amendment_changed',
      ]);
      expect(audit[2]?.reason).toBe('Sponsor withdrew it');
    });

    it('has no amendment for a study in design', async () => {
      const admin = await signIn(app, 'admin@demo.cdms');
      const created = await call(admin, 'POST', '/api/admin/studies', {
        code: 'AMEND-2027',
        protocolNumber: 'CDMS-AMEND-01',
        titleKo: '설계 중 시험',
        titleEn: 'In design',
        sponsor: '',
        kind: 'device',
        content: '',
        members: [],
      });
      const refused = await call(admin, 'POST', `/api/studies/${created.json().id}/amendments`, {
        number: 'AM-01',
        reason: 'x',
        sites: [],
      });
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error.code).toBe('study_not_live');
    });
  },
  { seed: 'demo' },
);
