import { type FormValues, getFormLayout, parsePhotoReference, type StudyDefinition } from '@cdms/study';
import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/schema.ts';
import { AppError } from '../http/errors.ts';

/**
 * Every `photo` item value a save would store must name a photo uploaded for this subject, visit and form,
 * with the same content hash: 422 `photo_not_of_form` otherwise (another subject's photo, a made-up id,
 * a hash that is not the stored bytes'). The value's shape is checked before, by `validateFormValues`.
 */
export async function checkPhotoReferences(
  executor: Kysely<Database> | Transaction<Database>,
  definition: StudyDefinition,
  target: { subjectId: number; visitKey: string; formKey: string },
  values: FormValues,
): Promise<void> {
  const layout = getFormLayout(definition, target.visitKey, target.formKey);
  if (!layout) return;
  for (const place of layout.items.values()) {
    if (place.item.type !== 'photo' || place.groupKey !== undefined) continue;
    const value = values[place.item.key];
    if (value === null || value === undefined || value === '') continue;
    const reference = parsePhotoReference(value);
    if (!reference) throw new AppError(422, 'photo_not_of_form');
    const found = await executor
      .selectFrom('form_photos')
      .select('id')
      .where('id', '=', reference.photoId)
      .where('sha256', '=', reference.sha256)
      .where('subject_id', '=', target.subjectId)
      .where('visit_key', '=', target.visitKey)
      .where('form_key', '=', target.formKey)
      .executeTakeFirst();
    if (!found) throw new AppError(422, 'photo_not_of_form');
  }
}
