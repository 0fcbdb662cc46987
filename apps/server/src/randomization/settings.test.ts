import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';
import { currentStudyDefinition } from '../studies/study-definitions.ts';

describeWithDatabase(
  'randomization settings',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });

    async function randomizeNewSubject(): Promise<{ id: number; group: string | null }> {
      const subject = (
        await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
          siteId: site1,
          consentDate: '2025-03-03',
          initials: 'SET',
        })
      ).json();
      await as(
        'pi',
        'PUT',
        `/api/studies/${studyId}/subjects/${subject.id}/forms/v2/inclusionExclusionEval`,
        {
          values: { eligible: 'Y' },
          version: 0,
        },
      );
      const response = await as('pi', 'POST', `/api/studies/${studyId}/subjects/${subject.id}/randomize`);
      expect(response.statusCode, response.body).toBe(201);
      return { id: subject.id, ...response.json() };
    }

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'dm', 'admin']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      await as('dm', 'POST', `/api/studies/${studyId}/randomization/generate`, {
        perSite: 8,
        seed: 'settings',
        siteIds: [site1],
      });
    });
    afterAll(async () => {
      await app.close();
    });

    /** The randomization role's keys, from the study's own definition (no study keys in code). */
    async function randomizationRole() {
      const current = await currentStudyDefinition(database().db, studyId);
      const role = current?.definition.roles?.randomization;
      if (!role) throw new Error('the demo study has no randomization role');
      return role;
    }

    async function groupInForm(subjectId: number): Promise<unknown> {
      const role = await randomizationRole();
      const form = await as(
        'pi',
        'GET',
        `/api/studies/${studyId}/subjects/${subjectId}/forms/${role.visit}/${role.form}`,
      );
      expect(form.statusCode, form.body).toBe(200);
      return form.json().values[role.group];
    }

    const put = (who: string, body: unknown) =>
      as(who, 'PUT', `/api/studies/${studyId}/randomization/settings`, body as object);

    it('lets the list keepers choose the roles that see groups, audited once per change; bad input 400, others 403', async () => {
      const status = (await as('dm', 'GET', `/api/studies/${studyId}/randomization`)).json();
      // The demo is open-label to everyone who reads subjects (the old "show the group" setting).
      expect(status.showGroup).toBe(true);
      expect(status.groupVisibleRoles).toEqual(['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY']);
      expect((await put('pi', { groupVisibleRoles: [] })).statusCode).toBe(403);
      for (const bad of [
        { showGroup: false },
        { groupVisibleRoles: ['NOPE'] },
        { groupVisibleRoles: ['UNBLINDED'] },
        { groupVisibleRoles: ['PI', 'PI'] },
        { groupVisibleRoles: 'PI' },
      ]) {
        const refused = await put('dm', bad);
        expect(refused.statusCode, JSON.stringify(bad)).toBe(400);
        expect(refused.json().error.code).toBe('validation_failed');
      }

      // Groups were written into forms and subjects randomized: the study cannot be blinded again.
      const first = await randomizeNewSubject();
      expect(await groupInForm(first.id)).toBe(first.group);
      const narrowing = await put('dm', { groupVisibleRoles: ['PI', 'SI', 'CRC'] });
      expect(narrowing.statusCode).toBe(409);
      expect(narrowing.json().error.code).toBe('groups_in_forms');
      expect(narrowing.json().error.message).toMatch(/blinded again/);

      // A study blinded from the start (set as its creation would): the sites only.
      await database()
        .db.updateTable('studies')
        .set({ group_visible_roles: [], show_randomization_group: false })
        .where('id', '=', studyId)
        .execute();
      const sitesOnly = await put('dm', { groupVisibleRoles: ['CRC', 'PI', 'SI'] });
      expect(sitesOnly.statusCode, sitesOnly.body).toBe(200);
      expect(sitesOnly.json()).toMatchObject({ showGroup: false, groupVisibleRoles: ['PI', 'SI', 'CRC'] });
      expect((await put('admin', { groupVisibleRoles: ['PI', 'SI', 'CRC'] })).statusCode).toBe(200);
      const changes = await database()
        .db.selectFrom('audit_events')
        .select(['before', 'after'])
        .where('event_type', '=', 'randomization.settings_changed')
        .execute();
      expect(changes).toEqual([
        {
          before: { groupVisibleRoles: [], showGroup: false },
          after: { groupVisibleRoles: ['PI', 'SI', 'CRC'], showGroup: false },
        },
      ]);
      // The PI may know: the answer has the group; the monitor may not, so the form never holds it.
      const sited = await randomizeNewSubject();
      expect(['treatment', 'control']).toContain(sited.group);
      expect(await groupInForm(sited.id)).toBeUndefined();

      expect((await put('dm', { groupVisibleRoles: [] })).statusCode).toBe(200);
      expect((await randomizeNewSubject()).group).toBeNull();

      // Everyone who reads subjects may know: the group goes into the form as before.
      const open = await put('admin', {
        groupVisibleRoles: ['PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY'],
      });
      expect(open.json().showGroup).toBe(true);
      const shown = await randomizeNewSubject();
      expect(['treatment', 'control']).toContain(shown.group);
      expect(await groupInForm(shown.id)).toBe(shown.group);
    });
  },
  { seed: 'demo' },
);
