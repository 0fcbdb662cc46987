import { todayInKorea } from '@cdms/contract';
import { getFormLayout, tmPerforationStudy } from '@cdms/study';
import { generate, generateSecret } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { createMembership } from '../admin/memberships.ts';
import { createUser } from '../admin/users.ts';
import { systemActor } from '../audit/audit-events.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { loadSubjectData } from '../data-entry/form-data.ts';
import type { App } from '../http/types.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { signatureStatesOf, signedDataHash, signingMeaning } from '../signature-state/signature-data.ts';
import {
  SIGNATURE_FAILURE_LIMIT,
  SIGNATURE_FAILURE_WINDOW_SECONDS,
} from '../signature-state/verify-signing-credentials.ts';

describe('signedDataHash', () => {
  it('is the same for the same data whatever the key order, and leaves the signing form out', () => {
    const a = signedDataHash(tmPerforationStudy, 'S01-001', {
      v1: { demographicInfo: { gender: 'F', birthDate: '1990-01-01' } },
      all: { testDirectorSigning: { signature: 'A', signatureDate: '2026-01-01' } },
    });
    const b = signedDataHash(tmPerforationStudy, 'S01-001', {
      all: { testDirectorSigning: { signature: 'B', signatureDate: '2026-02-02' } },
      v1: { demographicInfo: { birthDate: '1990-01-01', gender: 'F' } },
    });
    expect(a).toBe(b);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(
      signedDataHash(tmPerforationStudy, 'S01-001', {
        v1: { demographicInfo: { gender: 'M', birthDate: '1990-01-01' } },
      }),
    ).not.toBe(a);
    expect(
      signedDataHash(tmPerforationStudy, 'S01-002', {
        v1: { demographicInfo: { gender: 'F', birthDate: '1990-01-01' } },
      }),
    ).not.toBe(a);
  });

  it("takes the meaning from the signing form's own statement", () => {
    const help = getFormLayout(tmPerforationStudy, 'all', 'testDirectorSigning')?.sections[0]?.help;
    expect(signingMeaning(tmPerforationStudy)).toEqual(help);
  });
});

describeWithDatabase(
  'investigator signature',
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
    const subjectUrl = (subjectId: number) => `/api/studies/${studyId}/subjects/${subjectId}`;
    const sign = (who: string, subjectId: number, password = DEMO_PASSWORD) =>
      as(who, 'POST', `${subjectUrl(subjectId)}/signature`, { password });
    const signatureOf = async (subjectId: number) =>
      (await as('pi', 'GET', `${subjectUrl(subjectId)}/signature`)).json();

    async function subjectAt(who: string, siteId: number): Promise<number> {
      const created = await as(who, 'POST', `/api/studies/${studyId}/subjects`, {
        siteId,
        consentDate: '2025-03-03',
        initials: 'SGN',
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id;
    }

    async function saveDemographics(who: string, subjectId: number, gender: 'F' | 'M') {
      const url = `${subjectUrl(subjectId)}/forms/v1/demographicInfo`;
      const current = (await as(who, 'GET', url)).json();
      const saved = await as(who, 'PUT', url, {
        values: { ...current.values, gender },
        version: current.version,
        reasons: current.version > 0 ? { gender: 'Corrected from the source document' } : {},
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }

    /** The hash of the subject's data as stored now. */
    async function currentHash(subjectId: number): Promise<string> {
      const subject = await database()
        .db.selectFrom('subjects')
        .select('screening_number')
        .where('id', '=', subjectId)
        .executeTakeFirstOrThrow();
      const stored = await loadSubjectData(database().db, subjectId);
      return signedDataHash(tmPerforationStudy, subject.screening_number, stored.entered);
    }

    async function auditTypes(subjectId: number): Promise<string[]> {
      const rows = await database()
        .db.selectFrom('audit_events')
        .select('event_type')
        .where('subject_id', '=', subjectId)
        .orderBy('id')
        .execute();
      return rows.map((row) => row.event_type);
    }

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      studyId = (
        await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
      ).id;
      const siteOf = async (number: string) =>
        (
          await db
            .selectFrom('sites')
            .select('id')
            .where('study_id', '=', studyId)
            .where('institution_number', '=', number)
            .executeTakeFirstOrThrow()
        ).id;
      site1 = await siteOf('01');
      site2 = await siteOf('02');
      // A second PI, at site 02: another site's investigator.
      const otherPi = await createUser(db, systemActor('test'), {
        email: 'pi2@signature.test',
        name: '박책임',
        contact: '',
        locale: 'ko',
        isAdmin: false,
        password: DEMO_PASSWORD,
      });
      await createMembership(db, systemActor('test'), studyId, {
        userId: otherPi.id,
        role: 'PI',
        siteIds: [site2],
      });
      for (const who of ['admin', 'pi', 'si', 'crc', 'cra', 'dm'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
      session.pi2 = await signIn(app, 'pi2@signature.test');
    });
    afterAll(async () => {
      await app.close();
    });

    it('lets the PI sign with the right password: state signed, form filled, audited', async () => {
      const subjectId = await subjectAt('pi', site1);
      await saveDemographics('si', subjectId, 'F');
      expect(await signatureOf(subjectId)).toMatchObject({ state: 'none', current: null, canSign: true });

      const signed = await sign('pi', subjectId);
      expect(signed.statusCode, signed.body).toBe(201);
      const body = signed.json();
      expect(body).toMatchObject({
        state: 'signed',
        canSign: false,
        current: {
          printedName: '김연구',
          role: 'PI',
          meaning: signingMeaning(tmPerforationStudy),
          invalidatedAt: null,
          invalidatedReason: null,
        },
      });
      expect(Date.parse(body.current.signedAt)).not.toBeNaN();
      expect(body.history).toHaveLength(1);
      expect(body.current.dataHash).toBe(await currentHash(subjectId));

      const form = (await as('cra', 'GET', `${subjectUrl(subjectId)}/forms/all/testDirectorSigning`)).json();
      expect(form.values).toEqual({ signatureDate: todayInKorea(), signature: '김연구' });
      expect(await auditTypes(subjectId)).toContain('signature.signed');
      expect((await signatureStatesOf(database().db, [subjectId])).get(subjectId)).toBe('signed');
      // Everyone who reads the subject sees the signature; only its PI could sign.
      expect((await as('cra', 'GET', `${subjectUrl(subjectId)}/signature`)).json()).toMatchObject({
        state: 'signed',
        canSign: false,
      });
    });

    it('refuses a wrong password with 422, audits it and signs nothing', async () => {
      const subjectId = await subjectAt('pi', site1);
      const refused = await sign('pi', subjectId, 'not-my-password-1');
      expect(refused.statusCode).toBe(422);
      expect(refused.json().error.code).toBe('signature_password_incorrect');
      expect(await signatureOf(subjectId)).toMatchObject({ state: 'none', history: [] });
      const form = (await as('pi', 'GET', `${subjectUrl(subjectId)}/forms/all/testDirectorSigning`)).json();
      expect(form.version).toBe(0);
      const failed = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'actor_user_id'])
        .where('subject_id', '=', subjectId)
        .where('event_type', '=', 'signature.failed')
        .executeTakeFirstOrThrow();
      expect(failed.actor_user_id).toBe(session.pi?.userId);
      expect(failed.after).toMatchObject({ reason: 'wrong_password', failureCount: 1 });
      // The session is untouched: a wrong signing password is not a login failure.
      expect((await as('pi', 'GET', '/api/auth/me')).json().user?.email).toBe('pi@demo.cdms');
    });

    it('asks a signer with two-factor sign-in for the code too: missing, wrong, then right', async () => {
      const secret = generateSecret();
      await database()
        .db.insertInto('user_second_factors')
        .values({
          user_id: session.pi2?.userId ?? 0,
          secret,
          created_at: new Date(),
          confirmed_at: new Date(),
          last_time_step: null,
        })
        .execute();
      const subjectId = await subjectAt('pi2', site2);
      const url = `${subjectUrl(subjectId)}/signature`;
      const missing = await as('pi2', 'POST', url, { password: DEMO_PASSWORD });
      expect(missing.statusCode).toBe(422);
      expect(missing.json().error.code).toBe('signature_code_required');
      const wrong = await as('pi2', 'POST', url, { password: DEMO_PASSWORD, code: '000000' });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().error.code).toBe('wrong_second_factor_code');
      const failed = await database()
        .db.selectFrom('audit_events')
        .select('after')
        .where('subject_id', '=', subjectId)
        .where('event_type', '=', 'signature.failed')
        .executeTakeFirstOrThrow();
      expect(failed.after).toMatchObject({ reason: 'wrong_code', failureCount: 1 });
      const code = await generate({ secret });
      const signed = await as('pi2', 'POST', url, { password: DEMO_PASSWORD, code });
      expect(signed.statusCode, signed.body).toBe(201);
      // pi2 signs password-only in the later tests, with a fresh count of failures.
      await database().db.deleteFrom('user_second_factors').execute();
      await database()
        .db.deleteFrom('rate_limit_counters')
        .where('key', '=', `signature-failures:${session.pi2?.userId}`)
        .execute();
    });

    it('lets only the PI of the subject’s site sign', async () => {
      const subjectId = await subjectAt('pi', site1);
      for (const who of ['si', 'cra', 'dm', 'admin']) {
        const response = await sign(who, subjectId);
        expect(response.statusCode, who).toBe(403);
      }
      expect((await sign('crc', subjectId)).statusCode).toBe(404);
      expect((await sign('pi2', subjectId)).statusCode).toBe(404);
      expect((await as('si', 'GET', `${subjectUrl(subjectId)}/signature`)).json().canSign).toBe(false);
      expect((await signatureOf(subjectId)).state).toBe('none');
    });

    it('refuses a second signature while one is in force', async () => {
      const subjectId = await subjectAt('pi', site1);
      expect((await sign('pi', subjectId)).statusCode).toBe(201);
      const again = await sign('pi', subjectId);
      expect(again.statusCode).toBe(409);
      expect(again.json().error.code).toBe('already_signed');
      const concurrent = await Promise.all([1, 2, 3].map(() => sign('pi', subjectId)));
      expect(concurrent.map((response) => response.statusCode)).toEqual([409, 409, 409]);
    });

    it('gives one signature to concurrent signing requests', async () => {
      const subjectId = await subjectAt('pi', site1);
      const responses = await Promise.all([1, 2, 3].map(() => sign('pi', subjectId)));
      expect(responses.map((response) => response.statusCode).sort()).toEqual([201, 409, 409]);
      expect((await signatureOf(subjectId)).history).toHaveLength(1);
    });

    it('is invalidated by a later change of signed data, audited; re-signing works; the hash follows the data', async () => {
      const subjectId = await subjectAt('pi', site1);
      await saveDemographics('si', subjectId, 'F');
      const first = (await sign('pi', subjectId)).json();
      expect(first.current.dataHash).toBe(await currentHash(subjectId));

      await saveDemographics('si', subjectId, 'M');
      const invalidated = await signatureOf(subjectId);
      expect(invalidated).toMatchObject({ state: 'invalidated', canSign: true });
      expect(invalidated.current.invalidatedAt).not.toBeNull();
      expect(invalidated.current.invalidatedReason).toBe('v1.demographicInfo.gender');
      expect((await signatureStatesOf(database().db, [subjectId])).get(subjectId)).toBe('invalidated');
      const audit = await database()
        .db.selectFrom('audit_events')
        .select(['after', 'actor_user_id'])
        .where('subject_id', '=', subjectId)
        .where('event_type', '=', 'signature.invalidated')
        .executeTakeFirstOrThrow();
      expect(audit.actor_user_id).toBe(session.si?.userId);
      expect(audit.after).toMatchObject({ changedItems: ['v1.demographicInfo.gender'] });

      const second = await sign('pi', subjectId);
      expect(second.statusCode, second.body).toBe(201);
      expect(second.json()).toMatchObject({ state: 'signed' });
      expect(second.json().history).toHaveLength(2);
      expect(second.json().current.dataHash).not.toBe(first.current.dataHash);
      expect((await signatureStatesOf(database().db, [subjectId])).get(subjectId)).toBe('signed');

      // Back to the data first signed: the same hash again.
      await saveDemographics('si', subjectId, 'F');
      const third = (await sign('pi', subjectId)).json();
      expect(third.current.dataHash).toBe(first.current.dataHash);
      expect(third.history).toHaveLength(3);
    });

    it('is invalidated by a reset of another form, not by the signing itself', async () => {
      const subjectId = await subjectAt('pi', site1);
      await saveDemographics('si', subjectId, 'F');
      expect((await sign('pi', subjectId)).statusCode).toBe(201);
      const url = `${subjectUrl(subjectId)}/forms/v1/demographicInfo`;
      const current = (await as('si', 'GET', url)).json();
      const reset = await as('si', 'POST', `${url}/reset`, {
        version: current.version,
        reason: 'Wrong subject',
      });
      expect(reset.statusCode, reset.body).toBe(200);
      expect((await signatureOf(subjectId)).state).toBe('invalidated');
    });

    it('refuses saves and resets of the signing form; reading it works', async () => {
      const subjectId = await subjectAt('pi', site1);
      const url = `${subjectUrl(subjectId)}/forms/all/testDirectorSigning`;
      const put = await as('pi', 'PUT', url, {
        values: { signatureDate: todayInKorea(), signature: 'Forged' },
        version: 0,
      });
      expect(put.statusCode).toBe(422);
      expect(put.json().error.code).toBe('signature_form_read_only');
      const reset = await as('pi', 'POST', `${url}/reset`, { version: 0, reason: 'try' });
      expect(reset.statusCode).toBe(422);
      expect(reset.json().error.code).toBe('signature_form_read_only');
      expect((await as('pi', 'GET', url)).statusCode).toBe(200);
    });

    it('stops signing after repeated wrong passwords, audited', { timeout: 30_000 }, async () => {
      const subjectId = await subjectAt('crc', site2);
      // Failures count per fixed window: start well inside one so the test never straddles two.
      const windowMs = SIGNATURE_FAILURE_WINDOW_SECONDS * 1000;
      const untilNextWindow = windowMs - (Date.now() % windowMs);
      if (untilNextWindow < 10_000)
        await new Promise((resolve) => setTimeout(resolve, untilNextWindow + 100));
      for (let attempt = 1; attempt <= SIGNATURE_FAILURE_LIMIT; attempt++) {
        const response = await sign('pi2', subjectId, `wrong-password-${attempt}`);
        expect(response.statusCode).toBe(422);
      }
      const blocked = await sign('pi2', subjectId);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json().error.code).toBe('too_many_signature_attempts');
      expect((await as('pi2', 'GET', `${subjectUrl(subjectId)}/signature`)).json().state).toBe('none');
      const types = await auditTypes(subjectId);
      expect(types.filter((type) => type === 'signature.failed')).toHaveLength(SIGNATURE_FAILURE_LIMIT + 1);
    });

    it('reports none for subjects never signed and keeps the audit chain intact', async () => {
      const states = await signatureStatesOf(database().db, [2_000_000]);
      expect(states.get(2_000_000)).toBe('none');
      expect((await verifyAuditChain(database().db)).ok).toBe(true);
    });
  },
  { seed: 'demo' },
);
