import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A PDF's text as poppler's pdftotext reads it (`-raw`: each cell's text in one piece), without white
 * space: a line may wrap anywhere on the page.
 */
export function compactPdfText(pdf: Buffer): string {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'cdms-pdf-'));
  try {
    const file = path.join(directory, 'document.pdf');
    fs.writeFileSync(file, pdf);
    const result = spawnSync('pdftotext', ['-raw', '-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`pdftotext failed: ${result.stderr}`);
    return result.stdout.replace(/\s+/g, '');
  } finally {
    fs.rmSync(directory, { recursive: true, force: true });
  }
}
