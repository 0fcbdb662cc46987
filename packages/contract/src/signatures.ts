import { z } from 'zod';
import { localizedSchema } from './localized.ts';
import { roleSchema } from './roles.ts';

/**
 * The investigator's signature of a subject's casebook (product.md "Electronic signature"). The
 * signing form (the study definition's `signing` role, `isSigningForm` of @cdms/study) is filled by
 * the server when the PI signs; saves and resets of it are refused.
 */

/** none: never signed; signed: a signature in force; invalidated: the data changed after the last one. */
export const signatureStates = ['none', 'signed', 'invalidated'] as const;
export const signatureStateSchema = z.enum(signatureStates);
export type SignatureState = z.infer<typeof signatureStateSchema>;

export const signatureRecordSchema = z.object({
  id: z.number().int(),
  /** The signer's name as it was at signing (the manifestation shows it). */
  printedName: z.string(),
  /** The role that allowed the signature, as held at signing. */
  role: roleSchema.nullable(),
  /** ISO 8601, UTC. */
  signedAt: z.string(),
  /** What the signature means, in both languages. */
  meaning: localizedSchema,
  /** SHA-256 (hex) of the subject's data signed. */
  dataHash: z.string(),
  invalidatedAt: z.string().nullable(),
  /** The data changed after signing: visit.form.item paths, comma-separated. */
  invalidatedReason: z.string().nullable(),
});
export type SignatureRecord = z.infer<typeof signatureRecordSchema>;

export const signatureResponseSchema = z.object({
  state: signatureStateSchema,
  /** The newest signature (in force or invalidated); null when never signed. */
  current: signatureRecordSchema.nullable(),
  /** Every signature of the subject, newest first. */
  history: z.array(signatureRecordSchema),
  /**
   * Whether this user may sign now (the PI of the subject's site, with no signature in force and no
   * lock over the subject, its site, the study or the signing form).
   */
  canSign: z.boolean(),
  /** What a signature given now means (the signing dialog shows it). */
  meaning: localizedSchema,
});
export type SignatureResponse = z.infer<typeof signatureResponseSchema>;

export const signCasebookRequestSchema = z.strictObject({
  /** The signer's own password, entered again for this signature (21 CFR 11.200). */
  password: z.string().min(1).max(200),
  /** The authenticator code, when the signer has two-factor sign-in (else 422 signature_code_required). */
  code: z.string().trim().min(1).max(20).optional(),
});
export type SignCasebookRequest = z.infer<typeof signCasebookRequestSchema>;
