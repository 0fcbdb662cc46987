import { z } from 'zod';
import { groupVisibleRoleChoices } from './blinding.ts';
import { bodyIdSchema } from './ids.ts';

export const generateRandomizationRequestSchema = z.strictObject({
  /** Slots per site (stratum). */
  perSite: z.number().int().min(1).max(999),
  /** Makes the list reproducible; keep it secret with the list. */
  seed: z.string().trim().min(1).max(100),
  /** Only these sites; every site of the study without a list when omitted. */
  siteIds: z.array(bodyIdSchema).max(100).optional(),
});
export type GenerateRandomizationRequest = z.input<typeof generateRandomizationRequestSchema>;

export const importRandomizationRequestSchema = z.strictObject({
  /** CSV with a header: institution,sequence,group (group: treatment or control). */
  csv: z.string().min(1).max(1_000_000),
});

/** Per site: how much of the list is used. Never the groups: the list stays concealed. */
export const randomizationStatusSchema = z.object({
  sites: z.array(
    z.object({
      siteId: z.number().int(),
      siteCode: z.string(),
      institutionNumber: z.string(),
      total: z.number().int(),
      used: z.number().int(),
      remaining: z.number().int(),
    }),
  ),
  /**
   * Whether the group is written into the randomization form: every role that reads subjects may know
   * it (`groupVisibleRoles` holds them all). Otherwise the group stays in the allocation list.
   */
  showGroup: z.boolean(),
  /** Study setting: the roles that may see a subject's assigned group (UNBLINDED always may). */
  groupVisibleRoles: z.array(z.enum(groupVisibleRoleChoices)),
});
export type RandomizationStatus = z.infer<typeof randomizationStatusSchema>;

export const randomizeResponseSchema = z.object({
  /** R + institution number (2 digits) + assignment number (3 digits), e.g. R01003. */
  randomizationNumber: z.string(),
  assignmentDate: z.string(),
  /** The group, or null where the study keeps it from this user. */
  group: z.enum(['treatment', 'control']).nullable(),
});
export type RandomizeResponse = z.infer<typeof randomizeResponseSchema>;

export const randomizationSettingsRequestSchema = z.strictObject({
  /**
   * The roles that may see a subject's assigned group: all of them for an open-label study (the group
   * is then also filled into the form), none for a blinded one. UNBLINDED always may.
   */
  groupVisibleRoles: z
    .array(z.enum(groupVisibleRoleChoices))
    .max(groupVisibleRoleChoices.length)
    .refine((list) => new Set(list).size === list.length, 'duplicate role'),
});
export type RandomizationSettingsRequest = z.infer<typeof randomizationSettingsRequestSchema>;
