import fs from 'node:fs';

/** CHROMIUM_PATH if set, else Debian's /usr/bin/chromium. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH || '/usr/bin/chromium';
}

export function chromiumIsInstalled(): boolean {
  return fs.existsSync(chromiumPath());
}
