import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { koreaDateTime, type SaeContent, todayInKorea } from '@cdms/contract';
import { tmPerforationStudy } from '@cdms/study';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import { verifyAuditChain } from '../audit/verify-audit-chain.ts';
import { computeIndicators } from '../central-monitoring/compute-indicators.ts';
import type { App } from '../http/types.ts';
import { dueAtOf, isOverdue } from '../sae-state/sae-clock.ts';
import { DEMO_PASSWORD } from '../seed/demo-seed.ts';
import { remindSaeReports } from './remind-sae-reports.ts';

const role = tmPerforationStudy.roles?.adverseEvents;
if (!role) throw new Error('The test study has no adverse events role');

describe('the SAE clock', () => {
  it('is due 24 hours after awareness: 23:30 KST is due 23:30 KST the next day, across months and years', () => {
    for (const [aware, due] of [
      ['2026-03-01T23:30:00+09:00', '2026-03-02 23:30'],
      ['2026-02-28T23:30:00+09:00', '2026-03-01 23:30'],
      ['2026-12-31T23:30:00+09:00', '2027-01-01 23:30'],
      ['2028-02-28T00:10:00+09:00', '2028-02-29 00:10'],
    ] as const) {
      expect(koreaDateTime(dueAtOf(new Date(aware)))).toBe(due);
    }
    // 23:30 KST is 14:30 UTC the same calendar day: the clock is of instants, not of either day.
    expect(dueAtOf(new Date('2026-03-01T23:30:00+09:00')).toISOString()).toBe('2026-03-02T14:30:00.000Z');
  });

  it('is overdue only while not submitted and past its due time', () => {
    const due_at = new Date('2026-03-02T14:30:00Z');
    expect(isOverdue({ first_submitted_at: null, due_at }, new Date('2026-03-02T14:29:59Z'))).toBe(false);
    expect(isOverdue({ first_submitted_at: null, due_at }, new Date('2026-03-02T14:30:01Z'))).toBe(true);
    expect(isOverdue({ first_submitted_at: due_at, due_at }, new Date('2026-03-09T00:00:00Z'))).toBe(false);
  });
});

describeWithDatabase(
  'SAE reports',
  (database) => {
    let app: App;
    let studyId: number;
    let site1: number;
    const session: Record<string, SignedIn> = {};
    const as = (
      who: string,
      method: 'GET' | 'POST' | 'PUT',
      url: string,
      payload?: object,
      language: 'en' | 'ko' = 'en',
    ) =>
      app.inject({
        method,
        url,
        headers: { ...(session[who]?.headers ?? {}), 'accept-language': language },
        ...(payload ? { payload } : {}),
      });
    const reports = () => `/api/studies/${studyId}/sae-reports`;
    const formUrl = (subjectId: number) =>
      `/api/studies/${studyId}/subjects/${subjectId}/forms/${role.visit}/${role.form}`;

    async function newSubject(): Promise<number> {
      const created = await as('pi', 'POST', `/api/studies/${studyId}/subjects`, {
        siteId: site1,
        consentDate: '2025-03-03',
        initials: 'SAE',
      });
      expect(created.statusCode, created.body).toBe(201);
      return created.json().id;
    }

    /** Saves the adverse events form with these events (each: its term and whether serious). */
    async function saveEvents(subjectId: number, events: { term: string; serious: 'Y' | 'N' }[]) {
      const got = await as('si', 'GET', formUrl(subjectId));
      expect(got.statusCode, got.body).toBe(200);
      const current = got.json();
      const rows = events.map((event) => ({
        ...(role?.term ? { [role.term]: event.term } : {}),
        [role?.serious ?? '']: event.serious,
      }));
      const values = { ...current.values, hasAdverseEvent: 'Y', [role?.rows ?? '']: rows };
      const reasons: Record<string, string> =
        current.version > 0
          ? Object.fromEntries(Object.keys(values).map((key) => [key, 'Source record']))
          : {};
      const saved = await as('si', 'PUT', formUrl(subjectId), {
        values,
        version: current.version,
        reasons,
      });
      expect(saved.statusCode, saved.body).toBe(200);
    }

    async function reportsOf(subjectId: number) {
      return database()
        .db.selectFrom('sae_reports')
        .selectAll()
        .where('subject_id', '=', subjectId)
        .orderBy('event_number')
        .execute();
    }

    async function auditOf(reportId: number): Promise<string[]> {
      const rows = await database()
        .db.selectFrom('audit_events')
        .select('event_type')
        .where('entity_type', '=', 'sae_report')
        .where('entity_id', '=', String(reportId))
        .orderBy('id')
        .execute();
      return rows.map((row) => row.event_type);
    }

    async function outboxOf(reportId: number, key: string) {
      return database()
        .db.selectFrom('notifications as n')
        .innerJoin('users as u', 'u.id', 'n.recipient_user_id')
        .select(['u.email', 'n.subject', 'n.event_type'])
        .where('n.dedupe_key', 'like', `${key}:${reportId}%`)
        .orderBy('u.email')
        .execute();
    }

    const content: SaeContent = {
      criteria: ['hospitalisation', 'medicallyImportant'],
      narrative: '시술 1일 후 발열과 이통으로 입원. 항생제 정맥 투여 후 회복.',
      relevantHistory: 'No relevant history',
      suspectProducts: ['Test device (tympanic membrane patch), applied 2025-03-10'],
      outcome: 'Recovered',
      reporter: 'Kim Yeon-gu, investigator',
    };

    beforeAll(async () => {
      const db = database().db;
      app = await buildTestApp(database());
      await app.ready();
      studyId = (
        await db.selectFrom('studies').select('id').where('code', '=', 'TMP-2026').executeTakeFirstOrThrow()
      ).id;
      site1 = (
        await db
          .selectFrom('sites')
          .select('id')
          .where('study_id', '=', studyId)
          .where('institution_number', '=', '01')
          .executeTakeFirstOrThrow()
      ).id;
      for (const who of ['pi', 'si', 'crc', 'cra', 'dm', 'safety', 'coder'])
        session[who] = await signIn(app, `${who}@demo.cdms`);
    });
    afterAll(async () => {
      await app.close();
    });

    it('starts one report when a save marks an event serious, and not again on the next saves', async () => {
      const subjectId = await newSubject();
      await saveEvents(subjectId, [{ term: 'Headache', serious: 'N' }]);
      expect(await reportsOf(subjectId)).toEqual([]);

      const before = Date.now();
      await saveEvents(subjectId, [
        { term: 'Headache', serious: 'N' },
        { term: 'Otitis media', serious: 'Y' },
      ]);
      const [report, ...others] = await reportsOf(subjectId);
      expect(others).toEqual([]);
      expect(report).toMatchObject({
        event_number: 2,
        term: 'Otitis media',
        status: 'draft',
        current_version: 1,
      });
      expect(report?.awareness_at.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(report?.due_at.getTime()).toBe((report?.awareness_at.getTime() ?? 0) + 24 * 3_600_000);

      // Saved again (term corrected, serious still Y), and answered N then Y: still the one report.
      await saveEvents(subjectId, [
        { term: 'Headache', serious: 'N' },
        { term: 'Acute otitis media', serious: 'Y' },
      ]);
      await saveEvents(subjectId, [
        { term: 'Headache', serious: 'N' },
        { term: 'Acute otitis media', serious: 'N' },
      ]);
      await saveEvents(subjectId, [
        { term: 'Headache', serious: 'N' },
        { term: 'Acute otitis media', serious: 'Y' },
      ]);
      const after = await reportsOf(subjectId);
      expect(after).toHaveLength(1);
      expect(after[0]).toMatchObject({ id: report?.id, term: 'Acute otitis media' });
      expect(await auditOf(report?.id ?? 0)).toEqual(['sae.started']);
      // The site's PI, SI and CRC are told, but not the SI who saved it, nor another site's CRC.
      const started = await outboxOf(report?.id ?? 0, 'sae-started');
      expect(started.map((row) => row.email)).toEqual(['pi@demo.cdms']);
      expect(started.every((row) => row.event_type === 'sae_report')).toBe(true);
    });

    it('takes the site through draft, signed submission, acknowledgement and a follow-up', async () => {
      const subjectId = await newSubject();
      await saveEvents(subjectId, [{ term: 'Vertigo', serious: 'Y' }]);
      const [row] = await reportsOf(subjectId);
      const url = `${reports()}/${row?.id}`;

      const read = await as('cra', 'GET', url);
      expect(read.statusCode, read.body).toBe(200);
      expect(read.json()).toMatchObject({
        status: 'draft',
        canEdit: false,
        canSubmit: false,
        versions: [{ version: 1 }],
      });
      // Another site's coordinator does not find it.
      expect((await as('crc', 'GET', url)).statusCode).toBe(404);
      let report = (await as('si', 'GET', url)).json();
      expect(report).toMatchObject({ canEdit: true, canSubmit: false, canAcknowledge: false });

      const saved = await as('si', 'PUT', `${url}/draft`, { rowVersion: report.rowVersion, content });
      expect(saved.statusCode, saved.body).toBe(200);
      report = saved.json();
      expect(report.versions[0].content).toEqual(content);
      // A stale copy is refused and changes nothing.
      const stale = await as('si', 'PUT', `${url}/draft`, {
        rowVersion: report.rowVersion - 1,
        content: { ...content, narrative: 'x' },
      });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('sae_version_conflict');

      // Only the PI submits, and only with the right password.
      const bySi = await as('si', 'POST', `${url}/submission`, {
        rowVersion: report.rowVersion,
        password: DEMO_PASSWORD,
      });
      expect(bySi.statusCode).toBe(403);
      const wrong = await as('pi', 'POST', `${url}/submission`, {
        rowVersion: report.rowVersion,
        password: 'not-my-password-1',
      });
      expect(wrong.statusCode).toBe(422);
      expect(wrong.json().error.code).toBe('signature_password_incorrect');
      expect((await as('pi', 'GET', url)).json()).toMatchObject({
        status: 'draft',
        rowVersion: report.rowVersion,
        firstSubmittedAt: null,
      });
      expect(await outboxOf(row?.id ?? 0, 'sae-submitted')).toEqual([]);

      const submitted = await as('pi', 'POST', `${url}/submission`, {
        rowVersion: report.rowVersion,
        password: DEMO_PASSWORD,
      });
      expect(submitted.statusCode, submitted.body).toBe(200);
      report = submitted.json();
      expect(report).toMatchObject({
        status: 'submitted',
        overdue: false,
        canSubmit: false,
        canFollowUp: true,
      });
      expect(report.versions[0]).toMatchObject({ submittedBy: '김연구' });
      expect(report.versions[0].signatureMeaning.en).toMatch(/investigator/);
      expect((await outboxOf(row?.id ?? 0, 'sae-submitted')).map((r) => r.email)).toEqual([
        'safety@demo.cdms',
      ]);
      // Submitted content no longer changes.
      const late = await as('si', 'PUT', `${url}/draft`, { rowVersion: report.rowVersion, content });
      expect(late.statusCode).toBe(409);
      expect(late.json().error.code).toBe('sae_state_conflict');

      // Only the safety desk acknowledges.
      for (const who of ['pi', 'dm', 'cra']) {
        const refused = await as(who, 'POST', `${url}/acknowledgement`, { rowVersion: report.rowVersion });
        expect(refused.statusCode, who).toBe(403);
      }
      expect((await as('safety', 'GET', url)).json().canAcknowledge).toBe(true);
      const acknowledged = await as('safety', 'POST', `${url}/acknowledgement`, {
        rowVersion: report.rowVersion,
      });
      expect(acknowledged.statusCode, acknowledged.body).toBe(200);
      report = acknowledged.json();
      expect(report).toMatchObject({ status: 'acknowledged', canAcknowledge: false });
      expect(report.versions[0].acknowledgedBy).toBeTruthy();
      expect((await outboxOf(row?.id ?? 0, 'sae-acknowledged')).map((r) => r.email)).toEqual([
        'pi@demo.cdms',
        'si@demo.cdms',
      ]);

      // A follow-up: version 2, a draft holding the last content; submitted and acknowledged again.
      const followUp = await as('si', 'POST', `${url}/follow-ups`, { rowVersion: report.rowVersion });
      expect(followUp.statusCode, followUp.body).toBe(201);
      report = followUp.json();
      expect(report).toMatchObject({ status: 'draft', currentVersion: 2, overdue: false });
      expect(report.versions[1]).toMatchObject({ version: 2, kind: 'followUp', content, submittedAt: null });
      const twice = await as('si', 'POST', `${url}/follow-ups`, { rowVersion: report.rowVersion });
      expect(twice.statusCode).toBe(409);
      report = (
        await as('si', 'PUT', `${url}/draft`, {
          rowVersion: report.rowVersion,
          content: { ...content, outcome: 'Recovered without sequelae' },
        })
      ).json();
      report = (
        await as('pi', 'POST', `${url}/submission`, {
          rowVersion: report.rowVersion,
          password: DEMO_PASSWORD,
        })
      ).json();
      expect(report.versions.map((v: { submittedAt: string | null }) => v.submittedAt !== null)).toEqual([
        true,
        true,
      ]);
      expect(report.versions[0].content.outcome).toBe('Recovered');
      expect(report.versions[1].content.outcome).toBe('Recovered without sequelae');

      expect(await auditOf(row?.id ?? 0)).toEqual([
        'sae.started',
        'sae.draft_saved',
        'sae.signature_failed',
        'sae.submitted',
        'sae.acknowledged',
        'sae.follow_up_started',
        'sae.draft_saved',
        'sae.submitted',
      ]);
      expect((await verifyAuditChain(database().db)).ok).toBe(true);
    });

    it('prints a version as a CIOMS-I-style PDF in Korean and English and as well-formed E2B XML, audited', async () => {
      const subjectId = await newSubject();
      await saveEvents(subjectId, [{ term: 'Labyrinthitis <acute> & "severe"', serious: 'Y' }]);
      const [row] = await reportsOf(subjectId);
      const url = `${reports()}/${row?.id}`;
      let report = (await as('si', 'GET', url)).json();
      report = (await as('si', 'PUT', `${url}/draft`, { rowVersion: report.rowVersion, content })).json();
      report = (
        await as('pi', 'POST', `${url}/submission`, {
          rowVersion: report.rowVersion,
          password: DEMO_PASSWORD,
        })
      ).json();
      const dir = mkdtempSync(path.join(tmpdir(), 'sae-export-'));

      const texts: Record<string, string> = {};
      for (const language of ['en', 'ko'] as const) {
        const pdf = await as('safety', 'GET', `${url}/cioms.pdf`, undefined, language);
        expect(pdf.statusCode, pdf.body.slice(0, 200)).toBe(200);
        expect(pdf.headers['content-type']).toBe('application/pdf');
        const file = path.join(dir, `${language}.pdf`);
        writeFileSync(file, pdf.rawPayload);
        texts[language] = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      }
      expect(texts.en).toContain('CIOMS-I');
      expect(texts.en).toContain('Involved or prolonged inpatient hospitalisation');
      expect(texts.en).toContain('Suspected adverse event report');
      expect(texts.en).toContain('Labyrinthitis <acute>');
      expect(texts.en).toContain('김연구');
      expect(texts.en).toContain('Initial');
      expect(texts.ko).toContain('의심되는 이상사례 보고서');
      expect(texts.ko).toContain('입원 또는 입원 기간 연장');
      expect((texts.ko ?? '').replace(/\s+/g, '')).toContain(content.narrative.replace(/\s+/g, ''));
      // ?lang= wins over the header; an unknown version is 404.
      const english = await as('safety', 'GET', `${url}/cioms.pdf?lang=en&version=1`, undefined, 'ko');
      expect(english.statusCode).toBe(200);
      expect((await as('safety', 'GET', `${url}/cioms.pdf?version=9`)).statusCode).toBe(404);
      expect((await as('safety', 'GET', `${url}/cioms.pdf?lang=fr`)).statusCode).toBe(400);

      const xml = await as('dm', 'GET', `${url}/e2b.xml`);
      expect(xml.statusCode, xml.body.slice(0, 200)).toBe(200);
      const xmlFile = path.join(dir, 'case.xml');
      writeFileSync(xmlFile, xml.body);
      // Well-formed (xmllint exits non-zero otherwise); the case's facts are in it, escaped.
      execFileSync('xmllint', ['--noout', xmlFile]);
      expect(xml.body).toContain('<PORR_IN049016UV>');
      expect(xml.body).toContain('Labyrinthitis &lt;acute&gt; &amp; &quot;severe&quot;');
      expect(xml.body).toMatch(
        /displayName="requiresInpatientHospitalization"\/>\s*<value xsi:type="BL" value="true"/,
      );
      expect(xml.body).toMatch(/displayName="resultsInDeath"\/>\s*<value xsi:type="BL" value="false"/);
      expect(xml.body).toContain(content.suspectProducts[0]);
      const exported = await database()
        .db.selectFrom('audit_events')
        .select('after')
        .where('event_type', '=', 'sae.exported')
        .where('entity_id', '=', String(row?.id))
        .execute();
      expect(exported.map((entry) => (entry.after as { format: string }).format).sort()).toEqual([
        'cioms',
        'cioms',
        'cioms',
        'e2b',
      ]);
    });

    it('moves the clock with a corrected awareness time, lists overdue reports and reminds once', async () => {
      const subjectId = await newSubject();
      await saveEvents(subjectId, [{ term: 'Syncope', serious: 'Y' }]);
      const [row] = await reportsOf(subjectId);
      const url = `${reports()}/${row?.id}`;
      const report = (await as('si', 'GET', url)).json();

      const future = await as('si', 'PUT', `${url}/awareness`, {
        rowVersion: report.rowVersion,
        awarenessAt: new Date(Date.now() + 3_600_000).toISOString(),
        reason: 'Typo',
      });
      expect(future.statusCode).toBe(422);
      const noReason = await as('si', 'PUT', `${url}/awareness`, {
        rowVersion: report.rowVersion,
        awarenessAt: '2026-03-01T23:30:00+09:00',
      });
      expect(noReason.statusCode).toBe(400);
      const corrected = await as('si', 'PUT', `${url}/awareness`, {
        rowVersion: report.rowVersion,
        awarenessAt: '2026-03-01T23:30:00+09:00',
        reason: 'The site learned of it by phone the night before',
      });
      expect(corrected.statusCode, corrected.body).toBe(200);
      expect(corrected.json()).toMatchObject({
        awarenessAt: '2026-03-01T14:30:00.000Z',
        dueAt: '2026-03-02T14:30:00.000Z',
        overdue: true,
      });

      const overdue = (await as('cra', 'GET', `${reports()}?overdue=true&size=100`)).json();
      expect(overdue.reports.map((r: { id: number }) => r.id)).toContain(row?.id);
      expect(overdue.reports.every((r: { overdue: boolean }) => r.overdue)).toBe(true);
      const notOverdue = (await as('cra', 'GET', `${reports()}?overdue=false&size=100`)).json();
      expect(notOverdue.reports.map((r: { id: number }) => r.id)).not.toContain(row?.id);
      const paged = (await as('dm', 'GET', `${reports()}?size=20&page=1&status=draft`)).json();
      expect(paged.total).toBeGreaterThanOrEqual(1);
      expect(paged.reports.every((r: { status: string }) => r.status === 'draft')).toBe(true);

      // Central monitoring's indicator counts it at its site: not submitted, past due.
      const indicators = await computeIndicators(database().db, studyId, todayInKorea());
      const atSite = indicators.find((entry) => entry.key === 'overdueSaeReports' && entry.siteId === site1);
      expect(atSite?.numerator).toBeGreaterThanOrEqual(1);
      expect(atSite?.value).toBe(((atSite?.numerator ?? 0) * 100) / (atSite?.denominator ?? 1));
      const reportsAtSite = await database()
        .db.selectFrom('sae_reports')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('site_id', '=', site1)
        .executeTakeFirstOrThrow();
      expect(atSite?.denominator).toBe(Number(reportsAtSite.n));

      await remindSaeReports(database().db);
      await remindSaeReports(database().db);
      const reminders = await outboxOf(row?.id ?? 0, 'sae-reminder:overdue');
      expect(reminders.map((r) => r.email)).toEqual(['pi@demo.cdms', 'si@demo.cdms']);
    });

    it('refuses bad input with a 4xx in the caller’s language, and readers outside the desks', async () => {
      const bad = await as(
        'crc',
        'PUT',
        `${reports()}/1/draft`,
        { rowVersion: 1, content: { criteria: ['flu'] } },
        'ko',
      );
      expect(bad.statusCode).toBe(400);
      const duplicate = await as('crc', 'PUT', `${reports()}/1/draft`, {
        rowVersion: 1,
        content: { ...content, criteria: ['death', 'death'] },
      });
      expect(duplicate.statusCode).toBe(400);
      expect((await as('crc', 'GET', `${reports()}/999999`)).statusCode).toBe(404);
      expect((await as('crc', 'GET', `${reports()}?overdue=maybe`)).statusCode).toBe(400);
      expect((await as('coder', 'GET', reports())).statusCode).toBe(403);
      const missing = await as('crc', 'GET', `${reports()}/999999`, undefined, 'ko');
      expect(missing.json().error.message).toMatch(/[가-힣]/);
    });
  },
  { seed: 'demo' },
);
