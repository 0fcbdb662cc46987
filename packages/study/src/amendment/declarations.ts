import { z } from 'zod';
import { itemTypeSchema, keySchema } from '../model/study-definition.ts';

// What the data manager declares with an amendment (issue 49 item 2): what a diff of two definitions
// cannot guess. Every key names the live version (what the data is stored under today); only a rename's
// `to`, a mapping's new codes and a conversion's `to` type name the next version.

/** An item of a form renamed: its values move with it (never delete + add). `form` is the live form key. */
export const itemRenameSchema = z.strictObject({ form: keySchema, from: keySchema, to: keySchema });
export type ItemRename = z.infer<typeof itemRenameSchema>;

/** A form renamed: its values at every visit move with it. */
export const formRenameSchema = z.strictObject({ from: keySchema, to: keySchema });
export type FormRename = z.infer<typeof formRenameSchema>;

/** A re-coded code list (live key): old code → new code, for every item that uses the list. */
export const codeMappingSchema = z.strictObject({
  codeList: keySchema,
  map: z.record(z.string().min(1), z.string().min(1)),
});
export type CodeMapping = z.infer<typeof codeMappingSchema>;

/** An item (live keys) whose type changes, converted to `to` (`conversions.ts` says which are possible). */
export const typeConversionSchema = z.strictObject({ form: keySchema, item: keySchema, to: itemTypeSchema });
export type TypeConversion = z.infer<typeof typeConversionSchema>;

/**
 * A removed and an added element of the same kind declared as different things (not a rename): the
 * removed one's data is retired, the added one starts empty. `form` names the live form of two items;
 * absent, the pair is two forms.
 */
export const replacementSchema = z.strictObject({
  form: keySchema.optional(),
  removed: keySchema,
  added: keySchema,
});
export type Replacement = z.infer<typeof replacementSchema>;

export const amendmentDeclarationsSchema = z.strictObject({
  formRenames: z.array(formRenameSchema).optional(),
  itemRenames: z.array(itemRenameSchema).optional(),
  codeMappings: z.array(codeMappingSchema).optional(),
  typeConversions: z.array(typeConversionSchema).optional(),
  replacements: z.array(replacementSchema).optional(),
});
export type AmendmentDeclarations = z.infer<typeof amendmentDeclarationsSchema>;
