import { Zip, ZipDeflate } from 'fflate';

/**
 * A ZIP archive written as its entries' contents arrive (fflate's streaming Zip): each chunk of an
 * entry is compressed and handed on at once, so neither an entry nor the archive is ever held whole.
 * Entries are written one after the other; the archive's directory comes last. The caller pulls the
 * bytes, so a slow disk or client slows the reading of the database instead of filling memory.
 */

export interface ZipEntry {
  name: string;
  content: AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;
}

const encoder = new TextEncoder();

export async function* zipStream(
  entries: AsyncIterable<ZipEntry> | Iterable<ZipEntry>,
): AsyncGenerator<Uint8Array> {
  const ready: Uint8Array[] = [];
  let failure: Error | null = null;
  const zip = new Zip((error, data) => {
    if (error) failure = error;
    else ready.push(data);
  });
  // fflate compresses synchronously: after each push, what it produced is waiting in `ready`.
  function* take(): Generator<Uint8Array> {
    if (failure) throw failure;
    while (ready.length > 0) {
      const data = ready.shift();
      if (data && data.length > 0) yield data;
    }
  }
  for await (const entry of entries) {
    const file = new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    for await (const chunk of entry.content) {
      file.push(typeof chunk === 'string' ? encoder.encode(chunk) : chunk, false);
      yield* take();
    }
    file.push(new Uint8Array(0), true);
    yield* take();
  }
  zip.end();
  yield* take();
}
