import type { AuditTrailRow } from '@cdms/contract';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildTestApp, demoStudyIds, type SignedIn, signIn } from '../../test/test-app.ts';
import { describeWithDatabase } from '../../test/test-database.ts';
import type { App } from '../http/types.ts';

/**
 * The whole living demo's audit trail as the data manager reads it, in both languages: every field a
 * record shows is named in words (no stored key such as `contentHtml` or `pinned`), and no value is
 * markup, JSON or a stored code word — what an inspector reads on the audit page (issue 43 item 7).
 */
describeWithDatabase(
  'the living demo audit trail in words',
  (database) => {
    let app: App;
    let dm: SignedIn;
    let studyId: number;

    beforeAll(async () => {
      app = await buildTestApp(database());
      await app.ready();
      dm = await signIn(app, 'dm@demo.cdms');
      studyId = (await demoStudyIds(database().db)).studyId;
    });
    afterAll(() => app.close());

    async function wholeTrail(language: 'ko' | 'en'): Promise<AuditTrailRow[]> {
      const rows: AuditTrailRow[] = [];
      for (let page = 1; ; page += 1) {
        const response = await app.inject({
          method: 'GET',
          url: `/api/studies/${studyId}/audit?size=100&page=${page}`,
          headers: { ...dm.headers, 'accept-language': language },
        });
        expect(response.statusCode).toBe(200);
        const records: AuditTrailRow[] = response.json().records;
        rows.push(...records);
        if (records.length < 100) return rows;
      }
    }

    it('names every changed field in words and shows no markup or JSON as a value', async () => {
      const rows = await wholeTrail('en');
      expect(rows.length).toBeGreaterThan(1000);
      const rawFieldNames = new Set<string>();
      const markup: string[] = [];
      const codeWords = new Set<string>();
      for (const row of rows) {
        for (const change of row.changes) {
          // A field named by its stored key: a camelCase or snake_case identifier with no Hangul.
          if (
            change.field &&
            change.field.ko === change.field.en &&
            /^[a-z]+([A-Z_][a-z]+)*$/.test(change.field.ko)
          )
            rawFieldNames.add(`${row.eventType}: ${change.field.en}`);
          for (const value of [change.before, change.after]) {
            if (value && /<\/?[a-z][^>]*>|^[{[]"/.test(`${value.ko}\n${value.en}`))
              markup.push(`${row.eventType} #${row.id}: ${value.en.slice(0, 60)}`);
            // A stored code word (`screening_failure`, `data_entry`) rather than its reader's word.
            if (value && /^[a-z]+(_[a-z]+)+$/.test(value.en)) codeWords.add(`${row.eventType}: ${value.en}`);
          }
        }
      }
      expect([...rawFieldNames].sort()).toEqual([]);
      expect(markup.slice(0, 10)).toEqual([]);
      expect([...codeWords].sort()).toEqual([]);
    });
  },
  { seed: 'living-demo' },
);
