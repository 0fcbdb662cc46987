import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // The role that allowed the signature, as held when signing: the manifestation names it, and a
  // later change of the signer's memberships must not rewrite what the signature said.
  await db.schema.alterTable('signatures').addColumn('signer_role', 'text').execute();
}
