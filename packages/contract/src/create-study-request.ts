import { z } from 'zod';
import { siteRequestSchema } from './admin.ts';
import { emailSchema } from './auth.ts';
import {
  defaultRandomizationNumberFormat,
  defaultScreeningNumberFormat,
  numberFormatSchema,
} from './number-formats.ts';
import { roleSchema } from './roles.ts';
import { studyKindSchema } from './studies.ts';

/** A first member of a new study: an existing account by email, a role, and (site roles) its sites' codes. */
export const createStudyMemberSchema = z.strictObject({
  email: emailSchema,
  role: roleSchema,
  /** Codes of sites listed in the same request; site roles need one at least, DM and ADMIN none. */
  siteCodes: z.array(z.string().trim().min(1).max(20)).max(200).default([]),
});
export type CreateStudyMember = z.input<typeof createStudyMemberSchema>;

/**
 * A system administrator creates a study (issue 45 item 1); it starts in design. With it, in the
 * same transaction: its number formats, whether it randomizes, its participating sites and its
 * first members. The allocation list is made later, on the randomization page (per site, as every
 * list is: lists are always stratified by site).
 */
export const createStudyRequestSchema = z.strictObject({
  /** The short code shown in the header, file names and messages (e.g. TMP-2026). */
  code: z
    .string()
    .trim()
    .min(2)
    .max(20)
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, { error: 'invalid_study_code' }),
  protocolNumber: z.string().trim().max(50),
  titleKo: z.string().trim().min(1).max(300),
  titleEn: z.string().trim().max(300),
  sponsor: z.string().trim().max(200),
  kind: studyKindSchema,
  /** A short description shown in the study list. */
  content: z.string().trim().max(2000),
  /** Registration date, YYYY-MM-DD (today in Korea when absent). */
  registeredOn: z.iso.date().optional(),
  /** Its subjects' screening numbers (number-formats.ts). */
  screeningNumberFormat: numberFormatSchema.default(defaultScreeningNumberFormat),
  /**
   * Whether subjects are randomized. Off, the study has no randomization even when its design
   * declares a randomization role; on, only when its design declares one.
   */
  randomizationEnabled: z.boolean().default(true),
  /** Its randomization numbers (number-formats.ts). */
  randomizationNumberFormat: numberFormatSchema.default(defaultRandomizationNumberFormat),
  /** Its participating sites. */
  sites: z.array(siteRequestSchema).max(200).default([]),
  /** Its first members besides its creator (who becomes its first ADMIN). */
  members: z.array(createStudyMemberSchema).max(200).default([]),
});
export type CreateStudyRequest = z.input<typeof createStudyRequestSchema>;
export type CreateStudyInput = z.output<typeof createStudyRequestSchema>;
