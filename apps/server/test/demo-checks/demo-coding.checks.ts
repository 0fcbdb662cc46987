import { normalizeVerbatim } from '@cdms/study';
import { expect, it } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';

/**
 * Issue 51 item 5 over the living demo (run by test/living-demo.test.ts): the fictional dictionaries
 * loaded (MedDRA 90.0 in use, 90.1 loaded for the upgrade preview, WHODrug, the synonym list); every
 * verbatim of the adverse events' and medications' rows has its assignment, recounted here from the
 * stored rows; most coded on their own, some pending, one sent back to its site as an open query.
 */
export function demoCodingChecks(database: () => DatabaseHandle): void {
  async function demo() {
    const db = database().db;
    const study = await db
      .selectFrom('studies')
      .select('id')
      .where('code', '=', 'TMP-2026')
      .executeTakeFirstOrThrow();
    const assignments = await db
      .selectFrom('coding_assignments')
      .selectAll()
      .where('study_id', '=', study.id)
      .orderBy('id')
      .execute();
    return { db, study, assignments };
  }

  it('has the fictional dictionaries loaded, MedDRA 90.0 and WHODrug in use, 90.1 waiting', async () => {
    const { db, study } = await demo();
    const dictionaries = await db
      .selectFrom('coding_dictionaries')
      .select(['kind', 'version', 'active'])
      .where('study_id', '=', study.id)
      .orderBy('id')
      .execute();
    expect(dictionaries).toEqual([
      { kind: 'meddra', version: '90.0', active: true },
      { kind: 'whodrug', version: '2026-1 fictional', active: true },
      { kind: 'meddra', version: '90.1', active: false },
    ]);
  });

  it('has one assignment per verbatim of the stored rows, with the verbatim as stored', async () => {
    const { db, assignments } = await demo();
    const places = new Set<string>();
    for (const assignment of assignments) {
      const stored = await db
        .selectFrom('item_values')
        .select('value')
        .where('form_instance_id', '=', assignment.form_instance_id)
        .where('item_key', '=', assignment.group_key)
        .executeTakeFirst();
      const rows = stored?.value as Array<Record<string, unknown>> | undefined;
      const value = rows?.[assignment.row_index]?.[assignment.item_key];
      expect(typeof value === 'string' ? value.trim() : value).toBe(assignment.verbatim);
      places.add(`${assignment.form_instance_id}:${assignment.group_key}:${assignment.row_index}`);
    }
    // Recount: every non-empty verbatim of the coded groups (the forms the assignments name) has one.
    const forms = [...new Set(assignments.map((a) => `${a.form_key}:${a.group_key}:${a.item_key}`))];
    let verbatims = 0;
    for (const form of forms) {
      const [formKey, groupKey, itemKey] = form.split(':') as [string, string, string];
      const stored = await db
        .selectFrom('item_values as v')
        .innerJoin('form_instances as fi', 'fi.id', 'v.form_instance_id')
        .innerJoin('subjects as s', 's.id', 'fi.subject_id')
        .select(['v.value'])
        .where('fi.form_key', '=', formKey)
        .where('v.item_key', '=', groupKey)
        .where('s.deleted_at', 'is', null)
        .where('v.derived', '=', false)
        .execute();
      for (const row of stored)
        for (const cell of (row.value as Array<Record<string, unknown>> | null) ?? [])
          if (typeof cell[itemKey] === 'string' && (cell[itemKey] as string).trim() !== '') verbatims += 1;
    }
    expect(assignments.length).toBe(verbatims);
    expect(places.size).toBe(assignments.length);
  });

  it('coded most on their own, left some pending and sent one back as an open query', async () => {
    const { db, assignments } = await demo();
    const count = (kind: string, status: string) =>
      assignments.filter((a) => a.kind === kind && a.status === status).length;
    expect(count('meddra', 'auto')).toBeGreaterThan(count('meddra', 'pending'));
    expect(count('whodrug', 'auto')).toBeGreaterThan(count('whodrug', 'pending'));
    expect(count('meddra', 'pending') + count('whodrug', 'pending')).toBeGreaterThan(0);
    const queried = assignments.filter((a) => a.status === 'query');
    expect(queried).toHaveLength(1);
    const query = await db
      .selectFrom('queries')
      .select(['status', 'item_path', 'form_key'])
      .where('id', '=', queried[0]?.query_id ?? 0)
      .executeTakeFirstOrThrow();
    expect(query.status).toBe('open');
    expect(query.item_path).toContain(`[${queried[0]?.row_index}].${queried[0]?.item_key}`);
    // An auto code is the exact name of its LLT or drug in one of the term's languages, or a synonym.
    const synonyms = new Set(
      (await db.selectFrom('coding_synonyms').select('verbatim_norm').execute()).map((s) => s.verbatim_norm),
    );
    for (const assignment of assignments.filter((a) => a.status === 'auto')) {
      const names = await db
        .selectFrom('coding_terms')
        .select('name_norm')
        .where('dictionary_id', '=', assignment.dictionary_id ?? 0)
        .where('code', '=', assignment.code ?? '')
        .execute();
      const norm = normalizeVerbatim(assignment.verbatim);
      expect(names.some((n) => n.name_norm === norm) || synonyms.has(norm)).toBe(true);
    }
  });
}
