// How the system Chromium is started. One place for the flags so docs/stealth.md can list them exactly.

import { constants } from 'node:fs';
import { access } from 'node:fs/promises';
import { FetchFailure } from '../ports/fetcher.js';

export const DEFAULT_EXECUTABLE = '/usr/bin/chromium';

/**
 * Flags for a headless, offline-friendly, root-safe Chromium. Playwright adds its own defaults
 * (--headless, --no-sandbox unless asked, a fresh temp --user-data-dir, --disable-extensions, ...).
 */
export function chromiumArgs(proxyServer: string): string[] {
  return [
    '--headless',
    '--no-sandbox', // the renderer commonly runs as root in containers, where the sandbox cannot start
    '--disable-gpu',
    '--disable-quic', // QUIC is UDP and would not pass through the HTTP egress proxy
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-breakpad',
    '--disable-dev-shm-usage',
    '--mute-audio',
    // Every connection goes through the egress proxy, loopback included (Chromium bypasses it by default).
    `--proxy-server=${proxyServer}`,
    '--proxy-bypass-list=<-loopback>',
    // WebRTC may only use the proxied path, so it cannot open UDP to private or metadata addresses.
    '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
    '--webrtc-ip-handling-policy=disable_non_proxied_udp',
    // navigator.webdriver stays false, as in a normal browser.
    '--disable-blink-features=AutomationControlled',
  ];
}

/** Throws a per-request FetchFailure naming the Debian package when the browser is not installed. */
export async function assertExecutable(path: string): Promise<void> {
  try {
    await access(path, constants.X_OK);
  } catch {
    throw new FetchFailure(
      'network',
      `Stealth rendering needs Chromium, which was not found at ${path}: install the Debian package ` +
        `"chromium" (apt-get install chromium) or pass executablePath to the renderer`,
    );
  }
}

/** The user agent a desktop Chrome of this version sends ("HeadlessChrome" gives the browser away). */
export function desktopUserAgent(browserVersion: string): string {
  const major = /^\d+/.exec(browserVersion)?.[0] ?? '120';
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}
