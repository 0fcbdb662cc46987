import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 51: the sponsor's three study-wide desks join the study roles — CODER (medical coding),
  // SAFETY (the safety desk that acknowledges SAE reports) and UNBLINDED (statistician, pharmacist or
  // DMC). The check of 2026-11-21T1503 named the six roles of product.md.
  await sql`alter table memberships drop constraint if exists memberships_role_check`.execute(db);
  await sql`alter table memberships add constraint memberships_role_check
    check (role in ('PI', 'SI', 'CRC', 'CRA', 'DM', 'ADMIN', 'CODER', 'SAFETY', 'UNBLINDED'))`.execute(db);
}
