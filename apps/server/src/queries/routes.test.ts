import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/** Issue 14 through the API: the workflow, permissions, threads, the list, bulk actions and the counts. */
describeWithDatabase(
  'queries API',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    let site2: number;
    const session: Record<string, SignedIn> = {};
    const as = (who: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': 'en' },
        ...(payload ? { payload } : {}),
      });
    const queriesUrl = () => `/api/studies/${studyId}/queries`;
    const formUrl = (subjectId: number, visit: string, form: string) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${visit}/${form}`;

    async function newSubject(who: 'pi' | 'crc', siteId: number, initials: string): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials,
      });
      expect(created.statusCode).toBe(201);
      return created.json().id;
    }

    async function raise(subjectPk: number, itemKey = 'heartRate', who = 'cra') {
      return as(who, 'POST', queriesUrl(), {
        subjectPk,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: `v1.vitalSigns.${itemKey}`,
        text: '원자료(진료기록)상 맥박이 72로 기록되어 있습니다. 확인 부탁드립니다.',
      });
    }

    /** The read model's counts equal this test's own SQL over `queries`. */
    async function expectCountsMatch() {
      const db = database().db;
      const facts = await db
        .selectFrom('subject_facts')
        .select([
          'subject_id',
          'open_query_count',
          'answered_query_count',
          'manual_open_query_count',
          'manual_answered_query_count',
        ])
        .where('study_id', '=', studyId)
        .orderBy('subject_id')
        .execute();
      const raw = await db
        .selectFrom('subject_facts as f')
        .select((eb) => [
          'f.subject_id',
          eb
            .selectFrom('queries as q')
            .select(eb.fn.countAll<number>().as('c'))
            .whereRef('q.subject_id', '=', 'f.subject_id')
            .where('q.status', '=', 'open')
            .as('open'),
          eb
            .selectFrom('queries as q')
            .select(eb.fn.countAll<number>().as('c'))
            .whereRef('q.subject_id', '=', 'f.subject_id')
            .where('q.status', '=', 'answered')
            .as('answered'),
          eb
            .selectFrom('queries as q')
            .select(eb.fn.countAll<number>().as('c'))
            .whereRef('q.subject_id', '=', 'f.subject_id')
            .where('q.status', '=', 'open')
            .where('q.kind', '=', 'manual')
            .as('manualOpen'),
          eb
            .selectFrom('queries as q')
            .select(eb.fn.countAll<number>().as('c'))
            .whereRef('q.subject_id', '=', 'f.subject_id')
            .where('q.status', '=', 'answered')
            .where('q.kind', '=', 'manual')
            .as('manualAnswered'),
        ])
        .where('f.study_id', '=', studyId)
        .orderBy('f.subject_id')
        .execute();
      expect(
        facts.map((row) => [
          row.subject_id,
          row.open_query_count,
          row.answered_query_count,
          row.manual_open_query_count,
          row.manual_answered_query_count,
        ]),
      ).toEqual(
        raw.map((row) => [
          row.subject_id,
          Number(row.open),
          Number(row.answered),
          Number(row.manualOpen),
          Number(row.manualAnswered),
        ]),
      );
    }

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm', 'admin'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      site1 = demo.siteId('01');
      site2 = demo.siteId('02');
    });
    afterAll(async () => {
      await app.close();
    });

    it('raises a manual query (CRA, DM only), shows it on the form and in the thread, and refuses strangers', async () => {
      const subject = await newSubject('pi', site1, 'MQA');
      for (const who of ['pi', 'si', 'admin'])
        expect((await raise(subject, 'heartRate', who)).statusCode).toBe(403);
      // The CRC works at site 02: the subject does not exist for them.
      expect((await raise(subject, 'heartRate', 'crc')).statusCode).toBe(404);
      const created = await raise(subject);
      expect(created.statusCode).toBe(201);
      expect(created.json()).toMatchObject({
        kind: 'manual',
        state: 'open',
        assignee: 'site',
        reopened: false,
        itemPath: 'v1.vitalSigns.heartRate',
        messageCount: 1,
        abilities: { answer: false, comment: true, close: true, cancel: true, reopen: false },
      });
      expect(created.json().messages[0]).toMatchObject({ kind: 'opened', author: { role: 'CRA' } });
      const form = await as('pi', 'GET', formUrl(subject, 'v1', 'vitalSigns'));
      expect(form.json().queries).toEqual([
        expect.objectContaining({ id: created.json().id, status: 'open', kind: 'manual', messageCount: 1 }),
      ]);
      expect(form.json().abilities.openQuery).toBe(false);
      expect((await as('cra', 'GET', formUrl(subject, 'v1', 'vitalSigns'))).json().abilities.openQuery).toBe(
        true,
      );
      expect((await as('crc', 'GET', `${queriesUrl()}/${created.json().id}`)).statusCode).toBe(404);
      const unknownItem = await as('dm', 'POST', queriesUrl(), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: 'v1.vitalSigns.nothing',
        text: 'x',
      });
      expect(unknownItem.statusCode).toBe(422);
      expect(unknownItem.json().error.code).toBe('query_item_unknown');
      const wholeForm = await as('dm', 'POST', queriesUrl(), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: '',
        text: 'Please complete the form.',
        assignee: 'site',
      });
      expect(wholeForm.statusCode).toBe(201);
      expect(wholeForm.json().itemLabel).toEqual(wholeForm.json().formLabel);
      // The item's key alone names the same item: stored with its visit and form.
      const shortPath = await as('dm', 'POST', queriesUrl(), {
        subjectPk: subject,
        visitKey: 'v1',
        formKey: 'vitalSigns',
        itemPath: 'bodyTemperature',
        text: 'Please check the unit.',
      });
      expect(shortPath.json().itemPath).toBe('v1.vitalSigns.bodyTemperature');
      await expectCountsMatch();
    });

    it('runs every allowed transition and refuses the others with 409 and the current state', async () => {
      const subject = await newSubject('pi', site1, 'TRN');
      const id = (await raise(subject)).json().id;
      const act = (who: string, action: string, body: object = { text: 'words' }) =>
        as(who, 'POST', `${queriesUrl()}/${id}/${action}`, body);
      // open: no reopen
      const refused = await act('cra', 'reopen');
      expect(refused.statusCode).toBe(409);
      expect(refused.json().error).toMatchObject({
        code: 'query_state_conflict',
        details: { state: 'open' },
      });
      // In the reader's language.
      const inKorean = await app.inject({
        method: 'POST',
        url: `${queriesUrl()}/${id}/reopen`,
        headers: { ...(session.cra?.headers ?? {}), 'accept-language': 'ko' },
        payload: { text: '다시 확인' },
      });
      expect(inKorean.json().error.message).toContain('쿼리의 현재 상태');
      // answer: site only
      for (const who of ['cra', 'dm', 'admin']) expect((await act(who, 'answer')).statusCode).toBe(403);
      const answered = await act('si', 'answer', {
        text: '원자료 확인 후 수정하였습니다.',
        proposedValue: 72,
      });
      expect(answered.statusCode).toBe(200);
      expect(answered.json()).toMatchObject({ state: 'answered', messageCount: 2 });
      expect(answered.json().lastMessage).toMatchObject({
        kind: 'answer',
        proposedValue: 72,
        author: { role: 'SI' },
      });
      // answered: another answer only adds to the thread; a comment keeps the state
      expect((await act('pi', 'answer')).json()).toMatchObject({ state: 'answered', messageCount: 3 });
      expect((await act('cra', 'comment')).json()).toMatchObject({ state: 'answered', messageCount: 4 });
      // manage: CRA/DM only
      for (const who of ['pi', 'si', 'admin']) expect((await act(who, 'close')).statusCode).toBe(403);
      // answered → open (reopen) → answered → closed
      const reopened = await act('cra', 'reopen', { text: '수정 사유를 추가로 기재해 주세요.' });
      expect(reopened.json()).toMatchObject({ state: 'open', reopened: true });
      expect((await act('cra', 'reopen', {})).statusCode).toBe(400);
      await act('pi', 'answer');
      const closed = await act('dm', 'close', {});
      expect(closed.json()).toMatchObject({ state: 'closed', abilities: { reopen: true, close: false } });
      expect(closed.json().closedAt).not.toBeNull();
      // closed: no answer, comment, close or cancel
      for (const [who, action] of [
        ['pi', 'answer'],
        ['pi', 'comment'],
        ['cra', 'close'],
        ['cra', 'cancel'],
      ] as const) {
        const response = await act(who, action);
        expect(response.statusCode, `${action} on closed`).toBe(409);
        expect(response.json().error.details.state).toBe('closed');
      }
      // closed → open → cancelled, and nothing after a cancel but reading
      expect((await act('cra', 'reopen')).json().state).toBe('open');
      expect((await act('cra', 'cancel', {})).statusCode).toBe(400);
      expect((await act('cra', 'cancel', { text: 'Raised in error.' })).json()).toMatchObject({
        state: 'cancelled',
      });
      for (const action of ['answer', 'comment', 'close', 'cancel', 'reopen']) {
        const response = await act(action === 'answer' || action === 'comment' ? 'pi' : 'cra', action);
        expect(response.statusCode, `${action} on cancelled`).toBe(409);
        expect(response.json().error.details.state).toBe('cancelled');
      }
      const audit = await database()
        .db.selectFrom('audit_events')
        .select('event_type')
        .where('entity_type', '=', 'query')
        .where('entity_id', '=', String(id))
        .orderBy('id')
        .execute();
      expect(audit.map((row) => row.event_type)).toEqual([
        'query.opened',
        'query.answered',
        'query.answered',
        'query.commented',
        'query.reopened',
        'query.answered',
        'query.closed',
        'query.reopened',
        'query.cancelled',
      ]);
      await expectCountsMatch();
    });

    it('gives every state × action the answer of the workflow: the next state, or 409 with the current state', async () => {
      const subject = await newSubject('pi', site1, 'TBL');
      const expected: Record<string, Record<string, string | 409>> = {
        open: { answer: 'answered', comment: 'open', close: 'closed', cancel: 'cancelled', reopen: 409 },
        answered: {
          answer: 'answered',
          comment: 'answered',
          close: 'closed',
          cancel: 'cancelled',
          reopen: 'open',
        },
        closed: { answer: 409, comment: 409, close: 409, cancel: 409, reopen: 'open' },
        cancelled: { answer: 409, comment: 409, close: 409, cancel: 409, reopen: 409 },
      };
      const reach: Record<string, [string, string][]> = {
        open: [],
        answered: [['si', 'answer']],
        closed: [['cra', 'close']],
        cancelled: [['cra', 'cancel']],
      };
      const failures: string[] = [];
      for (const [state, actions] of Object.entries(expected)) {
        for (const [action, outcome] of Object.entries(actions)) {
          const id = (await raise(subject)).json().id;
          for (const [who, step] of reach[state] ?? [])
            await as(who, 'POST', `${queriesUrl()}/${id}/${step}`, { text: 'setup' });
          const who = action === 'answer' ? 'si' : action === 'comment' ? 'pi' : 'dm';
          const response = await as(who, 'POST', `${queriesUrl()}/${id}/${action}`, { text: 'words' });
          const got =
            response.statusCode === 200
              ? response.json().state
              : response.statusCode === 409 && response.json().error.details.state === state
                ? 409
                : `${response.statusCode} ${response.body}`;
          if (got !== outcome) failures.push(`${state} × ${action}: expected ${outcome}, got ${got}`);
        }
      }
      expect(failures).toEqual([]);
      await expectCountsMatch();
    });

    it('posts the value change on open queries of the item, with coded values by their labels', async () => {
      const subject = await newSubject('crc', site2, 'VCH');
      const url = formUrl(subject, 'v1', 'demographicInfo');
      await as('crc', 'PUT', url, { values: { birthDate: '1990-01-01', gender: 'M' }, version: 0 });
      const id = (
        await as('cra', 'POST', queriesUrl(), {
          subjectPk: subject,
          visitKey: 'v1',
          formKey: 'demographicInfo',
          itemPath: 'v1.demographicInfo.gender',
          text: 'Please check the sex against the source.',
        })
      ).json().id;
      await as('crc', 'PUT', url, {
        values: { birthDate: '1990-01-01', gender: 'F' },
        version: 1,
        reasons: { gender: 'Transcription error' },
      });
      const detail = (await as('crc', 'GET', `${queriesUrl()}/${id}`)).json();
      expect(detail.messages).toHaveLength(2);
      expect(detail.messages[1]).toMatchObject({ kind: 'value_changed', author: null, proposedValue: 'F' });
      expect(detail.messages[1].text.en).toMatch(/from ".+" to ".+"/);
      expect(detail.messages[1].text.ko).toContain('변경되었습니다');
      expect(detail.messages[1].text.en).not.toContain('"M"');
    });

    it('lets the site answer a system query and the monitor close it over a failing check only with a reason', async () => {
      const subject = await newSubject('crc', site2, 'SYS');
      const url = formUrl(subject, 'v1', 'vitalSigns');
      const saved = await as('crc', 'PUT', url, {
        values: { bloodPressureSystolic: 95, bloodPressureDiastolic: 96 },
        version: 0,
      });
      const id = saved.json().queries[0].id;
      const detail = (await as('crc', 'GET', `${queriesUrl()}/${id}`)).json();
      expect(detail).toMatchObject({ kind: 'system', checkStillFails: true, messageCount: 1 });
      expect(
        (
          await as('crc', 'POST', `${queriesUrl()}/${id}/answer`, { text: 'Value confirmed against source.' })
        ).json(),
      ).toMatchObject({ state: 'answered' });
      const cancel = await as('cra', 'POST', `${queriesUrl()}/${id}/cancel`, { text: 'no' });
      expect(cancel.statusCode).toBe(422);
      expect(cancel.json().error.code).toBe('system_query_not_cancellable');
      const noReason = await as('cra', 'POST', `${queriesUrl()}/${id}/close`, {});
      expect(noReason.statusCode).toBe(422);
      expect(noReason.json().error.code).toBe('query_reason_required');
      const closed = await as('cra', 'POST', `${queriesUrl()}/${id}/close`, {
        text: 'Confirmed against source.',
      });
      expect(closed.json()).toMatchObject({ state: 'closed', checkStillFails: true });
      const record = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'reason'])
        .where('event_type', '=', 'query.closed')
        .where('entity_id', '=', String(id))
        .executeTakeFirstOrThrow();
      expect(record.reason).toBe('Confirmed against source.');
      expect(record.after).toMatchObject({ checkStillFails: true });
      // A later save of the form that leaves the item alone does not raise the check again.
      const again = await as('crc', 'PUT', url, {
        values: { bloodPressureSystolic: 95, bloodPressureDiastolic: 96, heartRate: 60 },
        version: 1,
      });
      expect(again.json().queries.filter((q: { status: string }) => q.status === 'open')).toEqual([]);
      await expectCountsMatch();
    });

    describe('bulk', () => {
      it('closes or cancels all or nothing, each query audited', async () => {
        const subject = await newSubject('pi', site1, 'BLK');
        const ids: number[] = [];
        for (const item of ['heartRate', 'bodyTemperature', 'bloodPressureDiastolic'])
          ids.push((await raise(subject, item)).json().id);
        await as('cra', 'POST', `${queriesUrl()}/${ids[2]}/cancel`, { text: 'Raised in error.' });
        const bulk = (body: object, who = 'cra') => as(who, 'POST', `${queriesUrl()}/bulk`, body);
        expect(
          (await bulk({ action: 'close', queryIds: ids.slice(0, 2), text: 'Done' }, 'pi')).statusCode,
        ).toBe(403);
        const refused = await bulk({ action: 'close', queryIds: ids, text: 'Resolved at the visit.' });
        expect(refused.statusCode).toBe(409);
        expect(refused.json().error.details.queries).toEqual([
          { id: ids[2], state: 'cancelled', kind: 'manual' },
        ]);
        const states = await database()
          .db.selectFrom('queries')
          .select('status')
          .where('id', 'in', ids)
          .execute();
        expect(states.filter((row) => row.status === 'closed')).toEqual([]);
        const done = await bulk({
          action: 'close',
          queryIds: ids.slice(0, 2),
          text: 'Resolved at the visit.',
        });
        expect(done.json()).toEqual({ updated: 2 });
        const audited = await database()
          .db.selectFrom('audit_events')
          .select(['entity_id', 'reason'])
          .where('event_type', '=', 'query.closed')
          .where('entity_id', 'in', ids.slice(0, 2).map(String))
          .execute();
        expect(audited).toHaveLength(2);
        expect(audited.every((row) => row.reason === 'Resolved at the visit.')).toBe(true);
        await expectCountsMatch();
      });

      it('closes system queries over their failing checks with the reason, and refuses to cancel them', async () => {
        const subject = await newSubject('crc', site2, 'BSY');
        const saved = await as('crc', 'PUT', formUrl(subject, 'v1', 'vitalSigns'), {
          values: { bloodPressureSystolic: 95, bloodPressureDiastolic: 96 },
          version: 0,
        });
        const systemId = saved.json().queries[0].id;
        const manualId = (await raise(subject)).json().id;
        const bulk = (body: object) => as('cra', 'POST', `${queriesUrl()}/bulk`, body);
        const cancel = await bulk({ action: 'cancel', queryIds: [manualId, systemId], text: 'In error.' });
        expect(cancel.statusCode).toBe(409);
        expect(cancel.json().error.details.queries).toEqual([
          { id: systemId, state: 'open', kind: 'system' },
        ]);
        const closed = await bulk({
          action: 'close',
          queryIds: [systemId, manualId],
          text: 'Confirmed with source.',
        });
        expect(closed.json()).toEqual({ updated: 2 });
        const record = await database()
          .db.selectFrom('audit_events')
          .select('after')
          .where('event_type', '=', 'query.closed')
          .where('entity_id', '=', String(systemId))
          .executeTakeFirstOrThrow();
        expect(record.after).toMatchObject({ checkStillFails: true, text: 'Confirmed with source.' });
        // Another reader's scope: the PI of site 01 cannot reach site 02's queries at all.
        const outside = await as('pi', 'POST', `${queriesUrl()}/bulk`, {
          action: 'close',
          queryIds: [systemId],
          text: 'x',
        });
        expect(outside.statusCode).toBe(404);
        await expectCountsMatch();
      });
    });

    describe('list', () => {
      it('filters, sorts, pages and ages in UTC+9 days, each reader seeing their sites', async () => {
        const db = database().db;
        const subject = await newSubject('crc', site2, 'LST');
        const make = async (item: string, daysAgo: number) => {
          const id = (await raise(subject, item)).json().id;
          const at = new Date(Date.now() - daysAgo * 86_400_000);
          await sql`update queries set opened_at = ${at} where id = ${id}`.execute(db);
          return id;
        };
        const young = await make('heartRate', 3);
        const middle = await make('bodyTemperature', 10);
        const old = await make('bloodPressureDiastolic', 40);
        const list = (who: string, query: string) => as(who, 'GET', `${queriesUrl()}?${query}`);
        const ids = (response: Awaited<ReturnType<typeof list>>) =>
          response.json().queries.map((row: { id: number }) => row.id);
        const subjectFilter = `subject=${encodeURIComponent('lst')}`;
        expect(ids(await list('cra', `${subjectFilter}&sort=age&order=desc`))).toEqual([old, middle, young]);
        expect(ids(await list('cra', `${subjectFilter}&sort=age&order=asc`))).toEqual([young, middle, old]);
        expect(ids(await list('cra', `${subjectFilter}&age=0-7`))).toEqual([young]);
        expect(ids(await list('cra', `${subjectFilter}&age=8-14`))).toEqual([middle]);
        expect(ids(await list('cra', `${subjectFilter}&age=31%2B`))).toEqual([old]);
        expect(ids(await list('cra', `${subjectFilter}&age=15-30`))).toEqual([]);
        const page = await list('cra', `${subjectFilter}&size=10&page=1`);
        expect(page.json()).toMatchObject({ total: 3, page: 1, size: 10, canManage: true });
        expect(page.json().queries[0]).toMatchObject({ ageDays: 40, subject: { site: 'SBH-2Y' } });
        // Past the last page: empty, with the real total.
        expect((await list('cra', `${subjectFilter}&page=9`)).json()).toMatchObject({
          queries: [],
          total: 3,
        });
        expect((await list('cra', `${subjectFilter}&size=7`)).statusCode).toBe(400);
        expect((await list('cra', `${subjectFilter}&page=0`)).statusCode).toBe(400);
        // The CRC of site 02 sees them; the PI of site 01 does not; a site outside the scope is 404.
        expect((await list('crc', subjectFilter)).json().total).toBe(3);
        expect((await list('crc', subjectFilter)).json().canManage).toBe(false);
        expect((await list('pi', subjectFilter)).json().total).toBe(0);
        expect((await list('pi', `siteId=${site2}`)).statusCode).toBe(404);
        // Text in the thread, state and kind.
        await as('crc', 'POST', `${queriesUrl()}/${middle}/answer`, { text: 'Thermometer re-read: 36.5' });
        expect(ids(await list('dm', 'text=THERMOMETER'))).toEqual([middle]);
        expect(ids(await list('dm', `${subjectFilter}&state=answered`))).toEqual([middle]);
        expect(ids(await list('dm', `${subjectFilter}&kind=system`))).toEqual([]);
        expect(ids(await list('dm', `${subjectFilter}&itemPath=v1.vitalSigns.heartRate`))).toEqual([young]);
        const sortedByLast = ids(await list('dm', `${subjectFilter}&sort=lastMessageAt&order=desc`));
        expect(sortedByLast[0]).toBe(middle);
        // The download: same filters, every row, audited.
        const csv = await list('dm', '').then(() =>
          as('dm', 'GET', `${queriesUrl()}/export?format=csv&${subjectFilter}`),
        );
        expect(csv.statusCode).toBe(200);
        expect(csv.headers['content-type']).toContain('text/csv');
        expect(csv.body.trim().split('\r\n')).toHaveLength(4);
        const xlsx = await as('cra', 'GET', `${queriesUrl()}/export?format=xlsx&${subjectFilter}`);
        expect(xlsx.statusCode).toBe(200);
        const exported = await db
          .selectFrom('audit_events')
          .select('after')
          .where('event_type', '=', 'queries.exported')
          .execute();
        expect(exported.length).toBeGreaterThanOrEqual(2);
      });
    });
  },
  { seed: 'demo' },
);
