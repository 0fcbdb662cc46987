import net from 'node:net';
import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * How many statements a request sends to the database. On the 2-core machine of issue 12 every
 * round trip costs both the server and PostgreSQL (a wake-up, protocol messages, promise turns;
 * sending fewer took ~12 % off a save's server CPU, docs/PERFORMANCE.md), so these ceilings guard against round trips creeping back into the paths
 * every user takes all day: authentication, a form save, the subject list and a form read. A change
 * that needs one more statement raises the ceiling here, on purpose and visibly.
 */

/** The statements sent while `counting` is on (BEGIN and COMMIT included). */
const sent: string[] = [];
let counting = false;
const log = (event: LogEvent) => {
  if (counting) sent.push(event.query.sql);
};

/**
 * Writes to sockets while `counting` is on: on PostgreSQL, the round trips to the database
 * (`app.inject` itself uses no socket). Statements sent in one tick leave in one write
 * (db/database.ts), and a statement sent without waiting (`sendUnanswered`) leaves with the next.
 */
let socketWrites = 0;
type SocketWrite = (this: net.Socket, ...args: unknown[]) => unknown;
const socketPrototype = net.Socket.prototype as unknown as { _write: SocketWrite; _writev: SocketWrite };
const originalWrites = { _write: socketPrototype._write, _writev: socketPrototype._writev };
function countSocketWrites(): void {
  for (const method of ['_write', '_writev'] as const) {
    const original = originalWrites[method];
    socketPrototype[method] = function (this: net.Socket, ...args: unknown[]) {
      if (counting) socketWrites += 1;
      return original.apply(this, args);
    };
  }
}
function restoreSocketWrites(): void {
  Object.assign(socketPrototype, originalWrites);
}

describeWithDatabase(
  'round trips per request',
  (database) => {
    let app: App;
    let studyId: number;
    let subjectId: number;
    const session: Record<string, SignedIn> = {};
    const vitalSignsUrl = () => `/api/studies/${studyId}/subjects/${subjectId}/forms/v1/vitalSigns`;

    /** The response and the statements it took. */
    async function statementsOf(
      who: string,
      method: 'GET' | 'PUT',
      url: string,
      payload?: object,
    ): Promise<{ statusCode: number; json: () => unknown; statements: string[]; writes: number }> {
      sent.length = 0;
      socketWrites = 0;
      counting = true;
      try {
        const response = await app.inject({
          method,
          url,
          headers: session[who]?.headers ?? {},
          ...(payload ? { payload } : {}),
        });
        return {
          statusCode: response.statusCode,
          json: () => response.json(),
          statements: [...sent],
          writes: socketWrites,
        };
      } finally {
        counting = false;
      }
    }

    beforeAll(async () => {
      countSocketWrites();
      // No export runner or notification worker: their polling would be counted with the requests.
      app = await buildTestApp(database(), {}, { exportRunner: false, notificationWorker: false });
      await app.ready();
      for (const who of ['crc', 'dm']) session[who] = await signIn(app, `${who}@demo.cdms`);
      const demo = await demoStudyIds(database().db);
      studyId = demo.studyId;
      const created = await app.inject({
        method: 'POST',
        url: `/api/studies/${studyId}/subjects`,
        headers: session.crc?.headers ?? {},
        payload: { siteId: demo.siteId('02'), consentDate: '2025-03-03', initials: 'RTT' },
      });
      subjectId = created.json().id;
    });
    afterAll(async () => {
      restoreSocketWrites();
      await app.close();
    });

    it('saves vital signs in few statements (first entry, then a correction with a reason)', async () => {
      const values = {
        nd: false,
        bloodPressureSystolic: 120,
        bloodPressureDiastolic: 78,
        heartRate: 72,
        bodyTemperature: 36.6,
        result: 'normal',
      };
      const first = await statementsOf('crc', 'PUT', vitalSignsUrl(), { values, version: 0 });
      expect(first.statusCode).toBe(200);
      // The benchmark's save (issue 12): a correction of one value, with its reason.
      const correction = await statementsOf('crc', 'PUT', vitalSignsUrl(), {
        values: { ...values, heartRate: 73 },
        version: 1,
        reasons: { heartRate: 'Re-measured' },
      });
      expect(correction.statusCode).toBe(200);
      expect(correction.json()).toMatchObject({ version: 2, values: { heartRate: 73 } });
      // 1 to authenticate (session with user and memberships; the idle extension rides along as a
      // CTE), 7 in the transaction (BEGIN and COMMIT included): the subject in scope with the
      // definition's version, read with the subject's lock; one read of its forms and values, the
      // holds in force, its active queries, the form's verified items, whether it is signed and the
      // site's lab ranges; the form's row with its changed values; the answer's read (the form's
      // queries and comments, the holds in force, the SDV marks, the subject's rank and the SDV
      // plan in one statement); the audit records, chained in the database. Were 36 and 35 before
      // these ceilings were set, then 20 and 18, then 13 and 9.
      // The first save also creates the form's row and refreshes the read model (a form now holds
      // data: the facts' read, the SDV counts and the upsert, then the reports' rows computed from
      // them — issue 46, sent without waiting, so no round trip more). The correction moves no fact, so the
      // read model is left alone, and with nothing verified and no signature in force there is no
      // verification to reset and no signature to invalidate.
      expect(first.statements.length).toBeLessThanOrEqual(13);
      expect(first.statements.some((statement) => statement.includes('"subject_facts"'))).toBe(true);
      expect(correction.statements.length).toBeLessThanOrEqual(8);
      expect(correction.statements.some((statement) => statement.includes('subject_facts'))).toBe(false);
      // The round trips to the database: authentication; BEGIN with the subject's read and the
      // save's read behind it; the form's write, the answer's read, the audit records and COMMIT
      // (the save's read, the form's write and the answer's read sent without waiting,
      // `sendUnanswered`). Were 6 before statements were sent without waiting.
      if (database().kind === 'postgres') expect(correction.writes).toBeLessThanOrEqual(3);
    });

    it('reads the subject list and a form in few statements', async () => {
      // The list of the read model: 1 to authenticate, 4 for the page (was 8).
      const list = await statementsOf('dm', 'GET', `/api/studies/${studyId}/subjects`);
      expect(list.statusCode).toBe(200);
      expect(list.statements.length).toBeLessThanOrEqual(5);
      // A role that may delete subjects also reads the holds in force, once for the page, sent
      // beside the page's statements (each row's delete button says whether a hold refuses it).
      const siteList = await statementsOf('crc', 'GET', `/api/studies/${studyId}/subjects`);
      expect(siteList.statusCode).toBe(200);
      expect(siteList.statements.length).toBeLessThanOrEqual(6);
      // A saved form: 1 to authenticate, 1 for the subject with the definition's version, 1 for the
      // subject's data, 1 for queries, comments, holds, SDV marks, rank with plan (was 16, then 8).
      const form = await statementsOf('dm', 'GET', vitalSignsUrl());
      expect(form.statusCode).toBe(200);
      expect(form.json()).toMatchObject({ version: 2, values: { heartRate: 73 } });
      expect(form.statements.length).toBeLessThanOrEqual(4);
    });
  },
  { log, seed: 'demo' },
);
