/**
 * The type of an uploaded photo by its first bytes, never by its name or the browser's claim: JPEG, PNG, or
 * HEIC/HEIF (an ISO-BMFF `ftyp` box naming a HEIF brand — what phones write).
 */
export type PhotoSourceType = 'jpeg' | 'png' | 'heic';

const HEIF_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

export function sniffPhotoType(bytes: Uint8Array): PhotoSourceType | undefined {
  const starts = (...signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
  if (starts(0xff, 0xd8, 0xff)) return 'jpeg';
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'png';
  if (bytes.length >= 12 && starts(0, 0, 0) && ascii(bytes, 4, 8) === 'ftyp') {
    const boxSize =
      ((bytes[0] ?? 0) << 24) | ((bytes[1] ?? 0) << 16) | ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0);
    const end = Math.min(boxSize, bytes.length);
    // major brand at 8, minor version at 12, compatible brands from 16 to the box's end
    const brands = [ascii(bytes, 8, 12)];
    for (let at = 16; at + 4 <= end; at += 4) brands.push(ascii(bytes, at, at + 4));
    // AVIF is HEIF too (mif1) but not what a camera writes; refuse it unless a HEIC brand is there.
    if (brands.includes('avif') && !brands.some((b) => b.startsWith('he'))) return undefined;
    if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'heic';
  }
  return undefined;
}

function ascii(bytes: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...bytes.subarray(from, to));
}
