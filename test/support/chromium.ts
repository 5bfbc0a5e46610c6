// Debian's chromium, driven by playwright-core: the one browser the suite renders its reports in.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium; .ci/run installs it and sets MCP_PD_CHECK_REQUIRE_BROWSER so CI never skips. */
export const CHROMIUM = '/usr/bin/chromium';

/** A tap `skip` value: false where the browser is there (or CI requires it), else why the test skips. */
export const browserSkip: false | string =
  process.env.MCP_PD_CHECK_REQUIRE_BROWSER || existsSync(CHROMIUM)
    ? false
    : `Debian's chromium is not installed (${CHROMIUM}); apt-get install chromium`;

/** A headless chromium with no background networking (the machine's network is closed) and a fresh profile. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}
