import { z } from 'zod';
import { contactSchema, emailSchema, localeSchema, siteSummarySchema } from './auth.ts';
import { bodyIdSchema } from './ids.ts';
import { changesSomething, nothingToChange } from './request-body.ts';
import { roleSchema } from './roles.ts';
import { studyKindSchema, studyStatusSchema } from './studies.ts';

export const adminUserSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  name: z.string(),
  contact: z.string(),
  locale: localeSchema,
  active: z.boolean(),
  isAdmin: z.boolean(),
  lockedUntil: z.string().nullable(),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
  /** Whether the user has a confirmed second factor (the reset action removes it). */
  secondFactorEnrolled: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

const nameSchema = z.string().trim().min(1).max(100);

export const createUserRequestSchema = z.strictObject({
  email: emailSchema,
  name: nameSchema,
  contact: contactSchema.default(''),
  locale: localeSchema.default('ko'),
  isAdmin: z.boolean().default(false),
  /** The first password; the policy of password-policy.ts applies. */
  password: z.string().min(1).max(1024),
});
export type CreateUserRequest = z.input<typeof createUserRequestSchema>;

export const updateUserRequestSchema = z
  .strictObject({
    email: emailSchema,
    name: nameSchema,
    contact: contactSchema,
    locale: localeSchema,
    active: z.boolean(),
    isAdmin: z.boolean(),
  })
  .partial()
  .refine(changesSomething, nothingToChange);
export type UpdateUserRequest = z.input<typeof updateUserRequestSchema>;

export const resetPasswordResponseSchema = z.object({
  /** A new random password, shown once to the administrator to hand over. */
  temporaryPassword: z.string(),
});

export const adminStudySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  title: z.string(),
  status: studyStatusSchema,
  protocolNumber: z.string(),
  titleEn: z.string(),
  sponsor: z.string(),
  kind: studyKindSchema,
  /** Whether the study has a definition: it cannot go live without one. */
  hasDefinition: z.boolean(),
  sites: z.array(siteSummarySchema),
  /** Its number formats (number-formats.ts) and whether it randomizes at all. */
  screeningNumberFormat: z.string(),
  randomizationEnabled: z.boolean(),
  randomizationNumberFormat: z.string(),
});
export type AdminStudy = z.infer<typeof adminStudySchema>;

export const siteRequestSchema = z.strictObject({
  code: z
    .string()
    .trim()
    .min(1)
    .max(20)
    .regex(/^[A-Za-z0-9_-]+$/, { error: 'invalid_site_code' }),
  name: z.string().trim().min(1).max(100),
  institutionNumber: z.string().regex(/^\d{2}$/, { error: 'invalid_institution_number' }),
});
export type SiteRequest = z.infer<typeof siteRequestSchema>;

export const membershipSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  userEmail: z.string(),
  studyId: z.number().int(),
  role: roleSchema,
  siteIds: z.array(z.number().int()),
});
export type Membership = z.infer<typeof membershipSchema>;

export const createMembershipRequestSchema = z.strictObject({
  userId: bodyIdSchema,
  role: roleSchema,
  siteIds: z.array(bodyIdSchema).max(100).default([]),
});
export type CreateMembershipRequest = z.input<typeof createMembershipRequestSchema>;

export const updateMembershipRequestSchema = z.strictObject({
  siteIds: z.array(bodyIdSchema).max(100),
});

/** The system setting: a second factor required for system administrators, ADMIN and DM. */
export const twoFactorSettingSchema = z.strictObject({ requiredForAdminAndDm: z.boolean() });
export type TwoFactorSettingBody = z.infer<typeof twoFactorSettingSchema>;
