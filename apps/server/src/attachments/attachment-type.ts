import { inflateRawSync } from 'node:zlib';
import type { AttachmentContentType } from '@cdms/contract';
import { sniffImageType } from '../uploads/image-type.ts';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const DOCX_MAIN = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml';
const XLSX_MAIN = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml';
/** [Content_Types].xml is a few KB; more than this is not an Office file we read. */
const CONTENT_TYPES_MAX = 1024 * 1024;

/**
 * The type of an attachment by its bytes, never by its name or the browser's claim: PDF by its header,
 * images as the editor's upload does, DOCX and XLSX as ZIP archives whose `[Content_Types].xml` names
 * the main part of a Word document or an Excel workbook. Anything else (an .exe renamed .pdf, a plain
 * ZIP, a legacy .doc) is undefined: refused with 415.
 */
export function sniffAttachmentType(bytes: Uint8Array): AttachmentContentType | undefined {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  const image = sniffImageType(bytes);
  if (image) return image;
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04])) {
    const contentTypes = readZipEntry(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      '[Content_Types].xml',
    );
    if (contentTypes === undefined) return undefined;
    if (contentTypes.includes(DOCX_MAIN)) return DOCX;
    if (contentTypes.includes(XLSX_MAIN)) return XLSX;
  }
  return undefined;
}

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return signature.every((byte, index) => bytes[index] === byte);
}

/** One entry of a ZIP archive as text, found through the central directory; undefined if absent or broken. */
function readZipEntry(zip: Buffer, name: string): string | undefined {
  try {
    // End of central directory: 22 bytes plus a comment of up to 65,535 bytes at the end.
    const floor = Math.max(0, zip.length - 22 - 65_535);
    let end = -1;
    for (let at = zip.length - 22; at >= floor; at -= 1) {
      if (zip.readUInt32LE(at) === 0x06054b50) {
        end = at;
        break;
      }
    }
    if (end < 0) return undefined;
    const count = zip.readUInt16LE(end + 10);
    let at = zip.readUInt32LE(end + 16);
    for (let index = 0; index < count; index += 1) {
      if (zip.readUInt32LE(at) !== 0x02014b50) return undefined;
      const method = zip.readUInt16LE(at + 10);
      const compressedSize = zip.readUInt32LE(at + 20);
      const size = zip.readUInt32LE(at + 24);
      const nameLength = zip.readUInt16LE(at + 28);
      const extraLength = zip.readUInt16LE(at + 30);
      const commentLength = zip.readUInt16LE(at + 32);
      const localHeader = zip.readUInt32LE(at + 42);
      const entryName = zip.toString('utf8', at + 46, at + 46 + nameLength);
      if (entryName === name) {
        if (size > CONTENT_TYPES_MAX || zip.readUInt32LE(localHeader) !== 0x04034b50) return undefined;
        const dataStart =
          localHeader + 30 + zip.readUInt16LE(localHeader + 26) + zip.readUInt16LE(localHeader + 28);
        const data = zip.subarray(dataStart, dataStart + compressedSize);
        if (method === 0) return data.toString('utf8');
        if (method === 8)
          return inflateRawSync(data, { maxOutputLength: CONTENT_TYPES_MAX }).toString('utf8');
        return undefined;
      }
      at += 46 + nameLength + extraLength + commentLength;
    }
    return undefined;
  } catch {
    // Offsets past the end, a broken deflate stream: not a file we accept.
    return undefined;
  }
}

/**
 * The file name as stored and offered back: the last path segment, control characters and the
 * characters Windows refuses removed, at most 200 characters; never empty.
 */
export function sanitizeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const clean = base
    // biome-ignore lint/suspicious/noControlCharactersInRegex: removing control characters is the point
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '')
    .replace(/^[.\s]+/, '')
    .trim()
    .slice(0, 200);
  return clean === '' ? 'file' : clean;
}
