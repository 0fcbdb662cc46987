import { z } from 'zod';

/**
 * A text the server answers in both languages (a study's label, a check's message); the browser shows the
 * reader's. Lenient on purpose: the study model's `localizedTextSchema` (strict, never empty) checks a
 * definition's labels on the way in, and this only describes what comes out.
 */
export const localizedSchema = z.object({ ko: z.string(), en: z.string() });

/** A coded value with its label in both languages (from the study definition's code lists). */
export const codedValueSchema = z.object({ code: z.string(), label: localizedSchema });
export type CodedValue = z.infer<typeof codedValueSchema>;
