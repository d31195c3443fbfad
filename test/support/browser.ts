import { spawnSync } from 'node:child_process';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium (installed by scripts/test-prerequisites.sh), or undefined when the machine has none. */
export const chromiumPath = ['/usr/bin/chromium', '/usr/bin/chromium-browser'].find((bin) => spawnSync(bin, ['--version']).status === 0);

/** Headless Chromium that makes no request of its own: only the pages a test opens reach the network. */
export function launchChromium(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no chromium on this machine (apt-get install chromium)');
  return chromium.launch({
    executablePath: chromiumPath,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
