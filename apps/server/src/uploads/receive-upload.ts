import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import type { ErrorCode } from '../http/error-messages.ts';
import { AppError } from '../http/errors.ts';
import { isAcceptableText } from '../http/text-policy.ts';
import { diskSource, type FileSource } from './file-source.ts';

/** A received upload: its bytes in a temporary file of this process, until `dispose`. */
export interface ReceivedUpload extends FileSource {
  /** The name the browser sent, as sent (it passed the input policy; not yet sanitized). */
  readonly fileName: string;
  /** The temporary file (sharp reads a photo from it). */
  readonly path: string;
  /** Removes the temporary file; the caller calls it in `finally`, whatever happened. */
  dispose(): Promise<void>;
}

export interface UploadRule {
  /** The multipart field that carries the file; another field is 400 `upload_missing` naming this one. */
  field: string;
  maxBytes: number;
  /** The 413 code of this kind of file (its message says the limit in MB). */
  tooLarge: ErrorCode;
}

/**
 * What an upload under `rule` is refused with, for the OpenAPI document of its route (spread into its
 * `refusals`): `receiveUpload`'s 400s, its 413 naming the file as the route calls it (`kind`), and
 * its 415 with what the route's own look at the bytes refuses (`notAccepted`).
 */
export function uploadRefusals(rule: UploadRule, kind: string, notAccepted: string) {
  return {
    400: `No file in the field \`${rule.field}\` (\`upload_missing\`), a cut-off upload (\`upload_incomplete\`) or a bad file name (\`file_name_invalid\`).`,
    413: `The ${kind} is larger than allowed (\`${rule.tooLarge}\`).`,
    415: `Not a multipart upload (\`unsupported_media_type\`), or ${notAccepted}.`,
  };
}

/**
 * Reads the one file of a multipart request into a temporary file, hashing it on the way (issue 43):
 * memory stays at a stream buffer or two whatever the size, where `toBuffer()` held the whole file
 * and handed it on to a database driver as one value. Why a temporary file and not the database at
 * once: a slow client would otherwise hold a transaction (on PGlite, the only connection) for the
 * whole transfer. The file is this process's own (os.tmpdir()); what is kept goes to the database in
 * one transaction afterwards, so every process behind one PostgreSQL sees it
 * (docs/decisions/uploads-stream-through-a-temporary-file.md).
 *
 * Refuses, with nothing left behind: not multipart (415), no file in `field` (400), a file name with
 * NUL or bytes that are not UTF-8 (400 `file_name_invalid`, the input policy of every other text), a
 * file over `maxBytes` (413), a body that stops short (400 `upload_incomplete`).
 */
export async function receiveUpload(request: FastifyRequest, rule: UploadRule): Promise<ReceivedUpload> {
  if (!request.isMultipart()) throw new AppError(415, 'unsupported_media_type');
  let file: Awaited<ReturnType<typeof request.file>>;
  try {
    file = await request.file({ limits: { fileSize: rule.maxBytes, files: 1, fields: 5 } });
  } catch {
    throw new AppError(400, 'upload_missing', { field: rule.field });
  }
  if (file?.fieldname !== rule.field) {
    file?.file.resume();
    throw new AppError(400, 'upload_missing', { field: rule.field });
  }
  // Busboy decodes the name as UTF-8 and puts U+FFFD where the bytes were not UTF-8: a name with
  // U+FFFD was broken on the way (nobody types that character), and NUL cannot be stored.
  if (!isAcceptableText(file.filename) || file.filename.includes('\uFFFD')) {
    file.file.resume();
    throw new AppError(400, 'file_name_invalid');
  }

  const directory = await mkdtemp(path.join(tmpdir(), 'cdms-upload-'));
  const dispose = () => rm(directory, { recursive: true, force: true });
  try {
    const filePath = path.join(directory, 'upload');
    const hash = createHash('sha256');
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        hash.update(chunk);
        done(null, chunk);
      },
    });
    try {
      await pipeline(file.file, count, createWriteStream(filePath));
    } catch {
      // A body that stopped short or broke the multipart format: the client's, not a 500.
      throw new AppError(400, 'upload_incomplete');
    }
    // Busboy stops at the limit and ends the stream with `truncated` set.
    if (file.file.truncated)
      throw new AppError(413, rule.tooLarge, { megabytes: rule.maxBytes / 1024 / 1024 });
    return {
      ...diskSource(filePath, size, hash.digest('hex')),
      fileName: file.filename,
      path: filePath,
      dispose,
    };
  } catch (error) {
    await dispose();
    throw error;
  }
}

/**
 * `receiveUpload`, then `work` with the file, then the temporary file removed whatever happened,
 * before the answer is sent (so a client that got its answer finds no file of its upload left).
 */
export async function withUpload<T>(
  request: FastifyRequest,
  rule: UploadRule,
  work: (upload: ReceivedUpload) => Promise<T>,
): Promise<T> {
  const upload = await receiveUpload(request, rule);
  try {
    return await work(upload);
  } finally {
    await upload.dispose();
  }
}
