import { existsSync } from 'node:fs';
import { type Browser, type BrowserServer, chromium } from 'playwright-core';

/** Flags that keep Chromium off the network (this machine has none) and fit containers. */
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/**
 * The Chromium to drive: CHROMIUM_PATH if set, else Debian's (`apt-get install chromium`), else
 * the headless build the @sparticuz/chromium package ships, so `npm test` needs no root.
 */
export async function chromiumPath(): Promise<string> {
  if (process.env.CHROMIUM_PATH) {
    if (!existsSync(process.env.CHROMIUM_PATH)) throw new Error(`CHROMIUM_PATH=${process.env.CHROMIUM_PATH} does not exist`);
    return process.env.CHROMIUM_PATH;
  }
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium';
  const { default: packaged } = await import('@sparticuz/chromium');
  return packaged.executablePath();
}

export async function launch(): Promise<Browser> {
  return chromium.launch({ executablePath: await chromiumPath(), args: ARGS });
}

/**
 * One Chromium for the whole browser suite, which each file connects to (`connect`): launching and
 * closing one per file cost about a second a file. Each test still opens a context of its own.
 */
export async function launchShared(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: await chromiumPath(), args: ARGS });
}

/** A connection to the suite's Chromium; closing it closes the contexts it opened, not the browser. */
export function connect(wsEndpoint: string): Promise<Browser> {
  return chromium.connect(wsEndpoint);
}
