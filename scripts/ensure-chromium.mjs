// Before the end-to-end tests: make sure Debian's Chromium headless shell (the tests' browser) is
// there, never a download. As root on Debian/Ubuntu it installs it; otherwise it says in one line how to.
import { execSync } from 'node:child_process';
import fs from 'node:fs';

const browser = process.env.CHROMIUM_PATH || '/usr/bin/chromium-headless-shell';
const packages = 'chromium chromium-headless-shell fonts-noto-cjk';

if (fs.existsSync(browser)) process.exit(0);

const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
const hasApt = fs.existsSync('/usr/bin/apt-get');
if (!process.env.CHROMIUM_PATH && isRoot && hasApt) {
  console.log(`No Chromium at ${browser}; installing ${packages} with apt-get…`);
  execSync(`apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq ${packages}`, {
    stdio: 'inherit',
  });
  if (fs.existsSync(browser)) process.exit(0);
}
console.error(
  `No Chromium found at ${browser} (set CHROMIUM_PATH): install it with: apt-get install -y ${packages}`,
);
process.exit(1);
