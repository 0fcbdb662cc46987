import { inflateRawSync } from 'node:zlib';
import type { AttachmentContentType } from '@cdms/contract';
import type { FileSource } from '../uploads/file-source.ts';
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
 * ZIP, a legacy .doc) is undefined: refused with 415. Reads the head, and of a ZIP its directory and
 * that one entry, never the whole file (issue 43).
 */
export async function sniffAttachmentType(file: FileSource): Promise<AttachmentContentType | undefined> {
  const head = await file.read(0, 16);
  if (startsWith(head, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'application/pdf';
  const image = sniffImageType(head);
  if (image) return image;
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) {
    const contentTypes = await readZipEntry(file, '[Content_Types].xml');
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
async function readZipEntry(file: FileSource, name: string): Promise<string | undefined> {
  try {
    // End of central directory: 22 bytes plus a comment of up to 65,535 bytes at the end.
    const tailStart = Math.max(0, file.size - 22 - 65_535);
    const tail = await file.read(tailStart, file.size - tailStart);
    let end = -1;
    for (let at = tail.length - 22; at >= 0; at -= 1) {
      if (tail.readUInt32LE(at) === 0x06054b50) {
        end = at;
        break;
      }
    }
    if (end < 0) return undefined;
    const count = tail.readUInt16LE(end + 10);
    const directorySize = tail.readUInt32LE(end + 12);
    const directoryOffset = tail.readUInt32LE(end + 16);
    if (directoryOffset + directorySize > file.size) return undefined;
    const directory = await file.read(directoryOffset, directorySize);
    let at = 0;
    for (let index = 0; index < count; index += 1) {
      if (directory.readUInt32LE(at) !== 0x02014b50) return undefined;
      const method = directory.readUInt16LE(at + 10);
      const compressedSize = directory.readUInt32LE(at + 20);
      const size = directory.readUInt32LE(at + 24);
      const nameLength = directory.readUInt16LE(at + 28);
      const extraLength = directory.readUInt16LE(at + 30);
      const commentLength = directory.readUInt16LE(at + 32);
      const localHeaderOffset = directory.readUInt32LE(at + 42);
      const entryName = directory.toString('utf8', at + 46, at + 46 + nameLength);
      if (entryName === name) {
        if (size > CONTENT_TYPES_MAX || compressedSize > CONTENT_TYPES_MAX) return undefined;
        const localHeader = await file.read(localHeaderOffset, 30);
        if (localHeader.length < 30 || localHeader.readUInt32LE(0) !== 0x04034b50) return undefined;
        const dataStart =
          localHeaderOffset + 30 + localHeader.readUInt16LE(26) + localHeader.readUInt16LE(28);
        const data = await file.read(dataStart, compressedSize);
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
