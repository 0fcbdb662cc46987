import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

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

    async function randomizeNewSubject(): Promise<{ group: string | null }> {
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
      return response.json();
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

    it('lets the list keepers hide the group from site staff, audited once per change', async () => {
      expect((await as('dm', 'GET', `/api/studies/${studyId}/randomization`)).json().showGroup).toBe(true);
      expect(
        (await as('pi', 'PUT', `/api/studies/${studyId}/randomization/settings`, { showGroup: false }))
          .statusCode,
      ).toBe(403);
      expect(
        (await as('dm', 'PUT', `/api/studies/${studyId}/randomization/settings`, { showGroup: 'no' }))
          .statusCode,
      ).toBe(400);

      const hidden = await as('dm', 'PUT', `/api/studies/${studyId}/randomization/settings`, {
        showGroup: false,
      });
      expect(hidden.statusCode).toBe(200);
      expect(hidden.json().showGroup).toBe(false);
      await as('admin', 'PUT', `/api/studies/${studyId}/randomization/settings`, { showGroup: false });
      const changes = await database()
        .db.selectFrom('audit_events')
        .select(['before', 'after'])
        .where('event_type', '=', 'randomization.settings_changed')
        .execute();
      expect(changes).toEqual([{ before: { showGroup: true }, after: { showGroup: false } }]);
      expect((await randomizeNewSubject()).group).toBeNull();

      await as('admin', 'PUT', `/api/studies/${studyId}/randomization/settings`, { showGroup: true });
      expect(['treatment', 'control']).toContain((await randomizeNewSubject()).group);
    });
  },
  { seed: 'demo' },
);
