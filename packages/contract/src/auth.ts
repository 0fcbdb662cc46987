import { z } from 'zod';
import { actionSchema, roleSchema } from './roles.ts';
import { studyStatusSchema } from './studies.ts';

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ error: 'invalid_email' }));

export const localeSchema = z.enum(['ko', 'en']);
export type Locale = z.infer<typeof localeSchema>;

/** Phone numbers and similar: digits, spaces, + ( ) - . only; empty clears it. */
export const contactSchema = z
  .string()
  .trim()
  .max(40)
  .regex(/^[0-9+()\-. ]*$/, { error: 'invalid_contact' });

export const loginRequestSchema = z.strictObject({
  email: z.string().trim().toLowerCase().min(1).max(254),
  password: z.string().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const siteSummarySchema = z.object({
  id: z.number().int(),
  code: z.string(),
  name: z.string(),
  institutionNumber: z.string(),
});
export type SiteSummary = z.infer<typeof siteSummarySchema>;

export const studyMembershipSchema = z.object({
  studyId: z.number().int(),
  studyCode: z.string(),
  studyTitle: z.string(),
  /** The English title; empty when the study has none (show `studyTitle` then). */
  studyTitleEn: z.string(),
  studyStatus: studyStatusSchema,
  roles: z.array(roleSchema),
  /** The sites the user works at in this study; every site of the study for DM and ADMIN. */
  sites: z.array(siteSummarySchema),
  /**
   * What the server lets this user do somewhere in this study (see roles.ts `actions`): a write a freeze
   * or lock refuses is left out while every site the role covers for it is held (its own or the study's hold).
   */
  abilities: z.array(actionSchema),
  /**
   * The roles the study's design declares (packages/study `roles`: `randomization`, `labPanel`…): a
   * study without one lacks that feature, and the menus leave its page out.
   */
  designRoles: z.array(z.string()),
  /**
   * Issue 51 item 4: the study requires training before data entry and this user still owes a required
   * module at its current version — the server refuses their site data writes (403 `training_required`)
   * until it is completed, so the browser says so and disables saving. Absent: false.
   */
  trainingPending: z.boolean().optional(),
});
export type StudyMembership = z.infer<typeof studyMembershipSchema>;

export const sessionInfoSchema = z.object({
  /** When the session ends if the user does nothing (ISO 8601, UTC). */
  idleExpiresAt: z.string(),
  /** When the session ends regardless of activity. */
  absoluteExpiresAt: z.string(),
  /** The server's clock, so the browser can correct for its own. */
  serverTime: z.string(),
  idleTimeoutSeconds: z.number().int(),
});
export type SessionInfo = z.infer<typeof sessionInfoSchema>;

export const currentUserSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  contact: z.string(),
  locale: localeSchema,
  /** System administrator: manages users, sites and memberships. */
  isAdmin: z.boolean(),
  /** The login before the current one (the user popup's "recent access record"). */
  previousLoginAt: z.string().nullable(),
  /** Whether the user signs in with a code from an authenticator app after the password. */
  secondFactorEnrolled: z.boolean(),
  /** Unused one-time recovery codes (0 without a second factor). */
  recoveryCodesRemaining: z.number().int(),
  /** The system setting requires a second factor for this user's role: it cannot be turned off. */
  secondFactorMandatory: z.boolean(),
  /** Mandatory and not yet enrolled: every API route but enrolment answers 403 until it is done. */
  secondFactorEnrolmentRequired: z.boolean(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

export const meResponseSchema = z.object({
  user: currentUserSchema,
  memberships: z.array(studyMembershipSchema),
  csrfToken: z.string(),
  session: sessionInfoSchema,
});
export type MeResponse = z.infer<typeof meResponseSchema>;

/**
 * GET /api/auth/me without a live session (no cookie, an ended session, a deactivated account):
 * nobody is signed in. Not an error: every page load asks, and a visitor who has not logged in is
 * the normal case, not a refused request.
 */
export const signedOutResponseSchema = z.object({ user: z.null() });
export type SignedOutResponse = z.infer<typeof signedOutResponseSchema>;
/** What GET /api/auth/me answers: the signed-in user, or `{ user: null }`. */
export const meOrSignedOutResponseSchema = z.union([meResponseSchema, signedOutResponseSchema]);
export type MeOrSignedOutResponse = z.infer<typeof meOrSignedOutResponseSchema>;

/** A correct password for a user with two-factor sign-in: the code step comes next, no session yet. */
export const secondFactorRequiredResponseSchema = z.object({
  secondFactorRequired: z.literal(true),
  pendingToken: z.string(),
});
export type SecondFactorRequiredResponse = z.infer<typeof secondFactorRequiredResponseSchema>;

/** The longest code a second-factor field takes: an app's 6-digit code or a recovery code (XXXX-XXXX), with room for spaces. */
export const SECOND_FACTOR_CODE_MAX = 20;
/** Digits of an authenticator app's code (RFC 6238; otplib's default, which the server uses). */
export const APP_CODE_DIGITS = 6;
const secondFactorCodeSchema = z.string().trim().min(1).max(SECOND_FACTOR_CODE_MAX);

export const secondFactorLoginRequestSchema = z.strictObject({
  pendingToken: z.string().min(1).max(200),
  code: secondFactorCodeSchema,
});
export type SecondFactorLoginRequest = z.infer<typeof secondFactorLoginRequestSchema>;

export const startSecondFactorEnrolmentRequestSchema = z.strictObject({
  password: z.string().min(1).max(1024),
});
export const secondFactorEnrolmentResponseSchema = z.object({
  otpauthUri: z.string(),
  /** The base32 secret, for typing into an app by hand; shown only while enrolment is pending. */
  secret: z.string(),
  qrCodeDataUrl: z.string(),
});
export type SecondFactorEnrolmentResponse = z.infer<typeof secondFactorEnrolmentResponseSchema>;
export const confirmSecondFactorRequestSchema = z.strictObject({ code: secondFactorCodeSchema });
/** One-time recovery codes (`XXXX-XXXX`), answered once: at enrolment and when regenerated. */
export const recoveryCodesResponseSchema = z.object({ recoveryCodes: z.array(z.string()) });
export type RecoveryCodesResponse = z.infer<typeof recoveryCodesResponseSchema>;
/** New recovery codes or turning the factor off: the password and a current app code. */
export const secondFactorChangeRequestSchema = z.strictObject({
  password: z.string().min(1).max(1024),
  code: secondFactorCodeSchema,
});
export type SecondFactorChangeRequest = z.infer<typeof secondFactorChangeRequestSchema>;

export const renewResponseSchema = z.object({ session: sessionInfoSchema });
export type RenewResponse = z.infer<typeof renewResponseSchema>;

export const changePasswordRequestSchema = z.strictObject({
  currentPassword: z.string().min(1).max(1024),
  newPassword: z.string().min(1).max(1024),
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;

export const updateContactRequestSchema = z.strictObject({ contact: contactSchema });
export type UpdateContactRequest = z.infer<typeof updateContactRequestSchema>;
