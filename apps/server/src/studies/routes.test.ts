import { studyDefinitionSchema } from '@cdms/study';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { createUser } from '../admin/users.ts';
import { systemActor } from '../audit/audit-events.ts';
import type { App } from '../http/types.ts';

describeWithDatabase(
  'GET /api/studies/:studyId/definition',
  (database) => {
    let app: App;
    let studyId: number;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      studyId = (
        await database()
          .db.selectFrom('studies')
          .select('id')
          .where('code', '=', 'TMP-2026')
          .executeTakeFirstOrThrow()
      ).id;
    });
    afterAll(async () => {
      await app.close();
    });

    it("returns the study's current definition to a member, valid against the schema", async () => {
      const crc = await signIn(app, 'crc@demo.cdms');
      const response = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/definition`,
        headers: { cookie: crc.cookie },
      });
      expect(response.statusCode).toBe(200);
      const body = response.json();
      expect(body.studyId).toBe(studyId);
      const definition = studyDefinitionSchema.parse(body.definition);
      expect(definition.version).toBe(body.version);
      expect(definition.visits.map((visit) => visit.key)).toContain('v6');
    });

    it('answers 404 to a user outside the study, and for a study without a definition or a bad id', async () => {
      await createUser(database().db, systemActor(), {
        email: 'outsider@x.kr',
        name: 'Outsider',
        contact: '',
        locale: 'en',
        isAdmin: false,
        password: 'keep-out-2026',
      });
      const outsider = await signIn(app, 'outsider@x.kr', 'keep-out-2026');
      const hidden = await app.inject({
        method: 'GET',
        url: `/api/studies/${studyId}/definition`,
        headers: { cookie: outsider.cookie },
      });
      expect(hidden.statusCode).toBe(404);
      const dm = await signIn(app, 'dm@demo.cdms');
      const ended = await database()
        .db.selectFrom('studies')
        .select('id')
        .where('code', '=', 'OME-2024')
        .executeTakeFirstOrThrow();
      expect(
        (
          await app.inject({
            method: 'GET',
            url: `/api/studies/${ended.id}/definition`,
            headers: { cookie: dm.cookie },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await app.inject({
            method: 'GET',
            url: '/api/studies/abc/definition',
            headers: { cookie: dm.cookie },
          })
        ).statusCode,
      ).toBe(400);
      expect(
        (
          await app.inject({
            method: 'GET',
            url: '/api/studies/99999999999/definition',
            headers: { cookie: dm.cookie },
          })
        ).statusCode,
      ).toBe(400);
    });
  },
  { seed: 'demo' },
);
