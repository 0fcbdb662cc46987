import { z } from 'zod';

/** Facts about this installation the header shows: version popup, support panel. */
export const appInfoSchema = z.object({
  version: z.string(),
  /** YYYY-MM-DD */
  releaseDate: z.string(),
  supportEmail: z.string(),
  supportPhone: z.string(),
});
export type AppInfo = z.infer<typeof appInfoSchema>;
