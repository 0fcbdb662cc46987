import { z } from 'zod';

/** Korean is the default language and English the fallback, so every label carries both. */
export const localizedTextSchema = z.strictObject({
  ko: z.string().min(1),
  en: z.string().min(1),
});
export type LocalizedText = z.infer<typeof localizedTextSchema>;

export type Language = keyof LocalizedText;
