//! Shared set-up of the browser tests: starts the real server binary on an ephemeral port with a
//! temporary SQLite file, launches Debian's Chromium headless through playwright-core, and gives
//! helpers to drive the client as a person would (by clicking).

import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..');
/** Screenshots and logs land here (git-ignored). */
export const outputDir = process.env.WARROOM_TEST_OUTPUT ?? path.join(repoRoot, 'test-output', 'browser');
mkdirSync(outputDir, { recursive: true });

/** The server binary: $WARROOM_BIN, else the cargo target directory's debug build. */
function serverBinary() {
  if (process.env.WARROOM_BIN) return process.env.WARROOM_BIN;
  const target = process.env.CARGO_TARGET_DIR ?? path.join(repoRoot, 'target');
  return path.join(target, 'debug', 'warroom');
}

/**
 * Starts the server with a SQLite database; resolves once it listens. By default on
 * 127.0.0.1:0 with a fresh database; a restart passes the same `bind` and `dir` again. `args`
 * are the server's own flags (e.g. `--rated-min-matches 0`).
 * @param {{bind?: string, dir?: string, args?: string[]}} [options]
 * @returns {Promise<{url: string, dir: string, stop: (keep?: boolean) => Promise<void>, logs: () => string}>}
 */
export async function startServer({ bind = '127.0.0.1:0', dir = mkdtempSync(path.join(tmpdir(), 'warroom-browser-')), args = [] } = {}) {
  const database = `sqlite://${path.join(dir, 'warroom.db')}?mode=rwc`;
  const child = spawn(serverBinary(), args, {
    env: {
      ...process.env,
      WARROOM_BIND: bind,
      WARROOM_DATABASE_URL: database,
      DATABASE_URL: database,
      RUST_LOG: process.env.RUST_LOG ?? 'info',
      NO_COLOR: '1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 60_000);
    /** @param {Buffer} chunk */
    const onData = (chunk) => {
      output += chunk.toString();
      const found = output.match(/listening on (http:\/\/[\d.:]+)/);
      if (found) {
        clearTimeout(timer);
        resolve(found[1]);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return {
    url,
    dir,
    logs: () => output,
    /** Stops the server; its database is removed unless `keep` (for a restart). */
    stop: async (keep = false) => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.on('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Launches headless Chromium (Debian's package). */
export function launchBrowser() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
}

/**
 * The server and the browser a test file shares: started before its first test, stopped after
 * its last. Its fields are set once the file's `before` hook ran, so tests read them there.
 * @param {{args?: string[]}} [options] the server's flags
 * @returns {{server: Awaited<ReturnType<typeof startServer>>, browser: import('playwright-core').Browser}}
 */
export function serverAndBrowser({ args = [] } = {}) {
  const setup = /** @type {{server: Awaited<ReturnType<typeof startServer>>, browser: import('playwright-core').Browser}} */ ({});
  before(async () => {
    setup.server = await startServer({ args });
    setup.browser = await launchBrowser();
  });
  after(async () => {
    await setup.browser?.close();
    await setup.server?.stop();
  });
  return setup;
}

/**
 * A fresh browser context (its own localStorage: its own guest) with a page on the client,
 * whose console errors fail the test through `errors`.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{viewport?: {width: number, height: number}, isMobile?: boolean, hasTouch?: boolean}} [options]
 */
export async function openClient(browser, url, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
  if (process.env.WARROOM_CLIENT_DIR) await serveClientFromDisk(context, process.env.WARROOM_CLIENT_DIR);
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (error) => errors.push(String(error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await page.goto(url);
  return { context, page, errors };
}

/** Content types of the client's files, by extension. */
const CONTENT_TYPES = /** @type {Record<string, string>} */ ({ js: 'text/javascript', css: 'text/css', svg: 'image/svg+xml', html: 'text/html' });

/**
 * While working on the client only: `WARROOM_CLIENT_DIR=web-client` answers the client's
 * versioned files from that folder instead of the binary's embedded copy, so a change to the
 * client needs no server rebuild. CI never sets it: the tests run against the binary as built.
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} dir
 */
async function serveClientFromDisk(context, dir) {
  await context.route(/\/v\/[^/]+\/(.+)$/, (route) => {
    const file = /\/v\/[^/]+\/([^?#]+)/.exec(route.request().url())?.[1] ?? '';
    const body = readFileSync(path.resolve(repoRoot, dir, file));
    return route.fulfill({ body, contentType: CONTENT_TYPES[file.split('.').pop() ?? ''] ?? 'application/octet-stream' });
  });
}

/**
 * Picks a display name on the first screen, as a new visitor does.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function enterName(page, name) {
  await page.fill('#display-name', name);
  await page.click('.name-picker button[type=submit]');
  await page.waitForFunction((chosen) => document.getElementById('whoami')?.textContent === chosen, name);
  await page.waitForSelector('.lobby');
}

/**
 * One client per name on the file's server, opened first, then each named in turn.
 * @param {{server: {url: string}, browser: import('playwright-core').Browser}} setup
 * @param {...string} names
 */
export async function namedClients(setup, ...names) {
  return namedClientsAt(setup, {}, ...names);
}

/**
 * The same on a screen of the given size (`SIZES.phone`).
 * @param {{server: {url: string}, browser: import('playwright-core').Browser}} setup
 * @param {{viewport?: {width: number, height: number}, isMobile?: boolean, hasTouch?: boolean}} screen
 * @param {...string} names
 */
export async function namedClientsAt(setup, screen, ...names) {
  const clients = [];
  for (let opened = 0; opened < names.length; opened++) clients.push(await openClient(setup.browser, setup.server.url, screen));
  for (const [index, client] of clients.entries()) await enterName(client.page, names[index]);
  return clients;
}

/** The two screens every point of the client is checked at. */
export const SIZES = /** @type {const} */ ({
  desktop: { viewport: { width: 1280, height: 800 } },
  phone: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true },
});

/**
 * Saves a screenshot under the test output folder.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
export async function screenshot(page, name) {
  await page.screenshot({ path: path.join(outputDir, `${name}.png`), fullPage: true });
}
