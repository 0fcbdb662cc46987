// Before the end-to-end tests: make sure a Chromium is there. Debian's package, never a download.
// As root on Debian/Ubuntu it installs it; otherwise it says in one line how to.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const packages = 'chromium fonts-noto-cjk';

if (fs.existsSync(chromium)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');
if (!process.env.CHROMIUM_PATH && isRoot && hasApt) {
  console.log(`No Chromium at ${chromium}; installing ${packages} with apt-get…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`, {
    stdio: 'inherit',
  });
  if (fs.existsSync(chromium)) process.exit(0);
}
console.error(
  `No Chromium found at ${chromium} (set CHROMIUM_PATH): install it with: apt-get install -y ${packages}`,
);
process.exit(1);
