// One browser per renderer: launched on first use, relaunched after a crash, closed once.
// playwright-core (an optional peer dependency) is imported lazily: installs that never use stealth
// mode need not have it, and one that lacks it gets an error naming the package.

import type { Browser } from 'playwright-core';
import { FetchFailure } from '../ports/fetcher.js';
import { assertExecutable } from './launch-options.js';

export interface BrowserHostOptions {
  executablePath: string;
  /** Flags for this launch (they name the egress proxy, which is started first). */
  args: () => Promise<string[]>;
  launchTimeoutMs: number;
}

export class BrowserHost {
  #options: BrowserHostOptions;
  #browser: Promise<Browser> | null = null;
  #closed = false;
  /** How many times a browser was launched (1 + relaunches); tests read it. */
  launches = 0;

  constructor(options: BrowserHostOptions) {
    this.#options = options;
  }

  /** The running browser, launching (or relaunching after a crash) when there is none. */
  get(): Promise<Browser> {
    if (this.#closed) return Promise.reject(new FetchFailure('network', 'The renderer is closed'));
    if (this.#browser) return this.#browser;
    const pending = this.#launch();
    this.#browser = pending;
    const forget = () => {
      if (this.#browser === pending) this.#browser = null;
    };
    // A crashed or killed browser is forgotten, so the next request launches a fresh one; a failed
    // launch is not cached either (the package may get installed meanwhile).
    pending.then((browser) => browser.on('disconnected', forget), forget);
    return pending;
  }

  async #launch(): Promise<Browser> {
    await assertExecutable(this.#options.executablePath);
    let browser: Browser;
    try {
      const { chromium } = await import('playwright-core');
      browser = await chromium.launch({
        executablePath: this.#options.executablePath,
        args: await this.#options.args(),
        headless: true,
        timeout: this.#options.launchTimeoutMs,
        // Playwright's own signal handlers would close the browser behind the engine's back.
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (error) {
      throw new FetchFailure('network', launchFailure(error), 0, { cause: error });
    }
    this.launches++;
    if (this.#closed) {
      await browser.close().catch(() => {});
      throw new FetchFailure('network', 'The renderer is closed');
    }
    return browser;
  }

  /** True when a browser is running or starting. */
  get running(): boolean {
    return this.#browser !== null;
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#browser;
    this.#browser = null;
    if (!pending) return;
    const browser = await pending.catch(() => null);
    await browser?.close().catch(() => {});
  }
}

/** Why the browser did not start, in one line; a missing optional package is named with its install command. */
export function launchFailure(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ERR_MODULE_NOT_FOUND' && message.includes('playwright-core')) {
    return 'Stealth rendering needs the optional package playwright-core: npm install playwright-core';
  }
  return `Chromium could not be started: ${message.split('\n')[0]}`;
}
