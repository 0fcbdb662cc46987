import { type Kysely, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  // Issue 19 item 2: eardrum photographs of a subject's form. Stored after conversion (JPEG, no metadata)
  // with the converted bytes' SHA-256; the form's `photo` item value names it as `<id>:<sha256>`, so the
  // form's save path (audit, reasons, locks, exports) carries the reference. A photo is bound to the
  // subject, visit and form it was uploaded for: only that form may refer to it.
  await db.schema
    .createTable('form_photos')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('study_id', 'integer', (col) => col.notNull().references('studies.id'))
    .addColumn('subject_id', 'integer', (col) => col.notNull().references('subjects.id'))
    .addColumn('visit_key', 'text', (col) => col.notNull())
    .addColumn('form_key', 'text', (col) => col.notNull())
    .addColumn('content_type', 'text', (col) => col.notNull())
    .addColumn('width', 'integer', (col) => col.notNull())
    .addColumn('height', 'integer', (col) => col.notNull())
    .addColumn('size', 'integer', (col) => col.notNull())
    .addColumn('sha256', 'text', (col) => col.notNull())
    .addColumn('bytes', 'bytea', (col) => col.notNull())
    /** What was uploaded: jpeg, png or heic (the bytes' type, never the name's). */
    .addColumn('source_type', 'text', (col) => col.notNull())
    .addColumn('uploaded_by', 'integer', (col) => col.notNull().references('users.id'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('form_photos_subject')
    .on('form_photos')
    .columns(['subject_id', 'visit_key', 'form_key'])
    .execute();
}
