/// <reference path="./heic-decode.d.ts" />
import { readFile } from 'node:fs/promises';
import { AppError } from '../http/errors.ts';
import type { PhotoSourceType } from './photo-type.ts';

/** The longest side a stored photo keeps: enough to trace on, small enough for the casebook. */
export const PHOTO_MAX_SIDE = 2400;

export interface ConvertedPhoto {
  bytes: Buffer;
  width: number;
  height: number;
}

/**
 * Re-encodes an uploaded photo as JPEG: the camera's orientation applied, at most PHOTO_MAX_SIDE on the
 * longer side, and NO metadata — sharp writes none unless asked (`withMetadata`/`keepExif`), so EXIF (GPS,
 * camera serial, dates), XMP, IPTC and comments are gone; ICC colour is converted to sRGB. HEIC is HEVC,
 * which sharp's prebuilt libvips cannot decode: `heic-decode` (libheif in wasm) gives the pixels first.
 * Bytes that claim a type but do not decode are 422 `photo_unreadable`. `photo` is the bytes or a file's
 * path: sharp reads a file in libvips, outside the JavaScript heap (issue 43); HEIC is read whole (its
 * decoder takes bytes).
 */
export async function convertPhoto(photo: Buffer | string, type: PhotoSourceType): Promise<ConvertedPhoto> {
  // Loaded at the first photo, not at start: heic-decode instantiates its wasm when imported, and
  // the two cost a server that never converts a photo ~16 MB of its resident set (docs/PERFORMANCE.md).
  // Outside the try: a library that does not load is the server's fault, not the photo's.
  const { default: sharp } = await import('sharp');
  const decodeHeic = type === 'heic' ? (await import('heic-decode')).default : null;
  try {
    const input = decodeHeic
      ? await decodeHeic({ buffer: typeof photo === 'string' ? await readFile(photo) : photo }).then(
          (image) =>
            sharp(Buffer.from(image.data.buffer, image.data.byteOffset, image.data.byteLength), {
              raw: { width: image.width, height: image.height, channels: 4 },
            }),
        )
      : sharp(photo, { failOn: 'error', limitInputPixels: 100_000_000 });
    const { data, info } = await input
      .rotate()
      .resize({ width: PHOTO_MAX_SIDE, height: PHOTO_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .flatten({ background: '#ffffff' })
      .jpeg({ quality: 85, mozjpeg: true })
      .toBuffer({ resolveWithObject: true });
    return { bytes: data, width: info.width, height: info.height };
  } catch {
    throw new AppError(422, 'photo_unreadable');
  }
}
