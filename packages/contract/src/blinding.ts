import { z } from 'zod';
import { roles } from './role-names.ts';

/**
 * The roles a study may let see a subject's assigned group (issue 51 item 3). The unblinded desk
 * (UNBLINDED, `group.read`) always sees groups and is not among them.
 */
export const groupVisibleRoleChoices = roles.filter((role) => role !== 'UNBLINDED') as readonly Exclude<
  (typeof roles)[number],
  'UNBLINDED'
>[];
export type GroupVisibleRole = (typeof groupVisibleRoleChoices)[number];

export const treatmentGroupSchema = z.enum(['treatment', 'control']);

/** Emergency unblinding of one subject by its PI: a reason and the password entered again. */
export const unblindSubjectRequestSchema = z.strictObject({
  reason: z.string().trim().min(1).max(2000),
  password: z.string().min(1).max(200),
  /** The authenticator code, required when the PI has two-factor sign-in. */
  code: z.string().trim().max(20).optional(),
});
export type UnblindSubjectRequest = z.input<typeof unblindSubjectRequestSchema>;

/** The answer to the PI who broke the blind: the group, and when. */
export const unblindSubjectResponseSchema = z.object({
  group: treatmentGroupSchema,
  randomizationNumber: z.string(),
  unblindedAt: z.string(),
});
export type UnblindSubjectResponse = z.infer<typeof unblindSubjectResponseSchema>;

/**
 * A subject's blinding as its reader sees it: whether its blind was broken (everyone reading the
 * subject sees that), and its group only for a reader who may know it (null otherwise, or before
 * randomization); `mayBreak` whether this reader may break the blind now.
 */
export const subjectBlindingSchema = z.object({
  unblinded: z.boolean(),
  unblindedAt: z.string().nullable(),
  group: treatmentGroupSchema.nullable(),
  mayBreak: z.boolean(),
});
export type SubjectBlinding = z.infer<typeof subjectBlindingSchema>;
