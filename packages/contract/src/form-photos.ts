import { z } from 'zod';

// Issue 19 item 2: the eardrum photograph of a tympanicPhoto form. Uploaded as multipart (field `photo`),
// converted by the server to JPEG without metadata; the form's `photo` item then holds `reference`.

/** The largest photo accepted (a phone's HEIC or an endoscope's PNG fits easily). */
export const FORM_PHOTO_MAX_BYTES = 15 * 1024 * 1024;

/** What the browser offers in the file picker; the server sniffs the bytes whatever the name says. */
export const FORM_PHOTO_ACCEPT = 'image/jpeg,image/png,image/heic,image/heif,.heic,.heif,.jpg,.jpeg,.png';

export const formPhotoSchema = z.object({
  photoId: z.int().positive(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The `photo` item's value: `<photoId>:<sha256>`. */
  reference: z.string(),
  contentType: z.literal('image/jpeg'),
  width: z.int().positive(),
  height: z.int().positive(),
  size: z.int().positive(),
  sourceType: z.enum(['jpeg', 'png', 'heic']),
});
export type FormPhoto = z.infer<typeof formPhotoSchema>;
