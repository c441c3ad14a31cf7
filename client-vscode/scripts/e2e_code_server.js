'use strict';
/**
 * Real VS Code (code-server) + headless Chromium: open a workspace, open shop/pricing.py at
 * compute_price through the code-server CLI (`--reuse-window FILE:LINE:COL` into the browser
 * session), wait for that editor, run "codekith: Find Related Code", check the Quick Pick
 * shows the seed and a callee, save screenshots. Run by scripts/e2e_code_server.sh, which
 * installs the tools and the .vsix and sandboxes HOME and the XDG dirs.
 */
const { execFile, spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const { promisify } = require('node:util');
const puppeteer = require(require.resolve('puppeteer-core', { paths: [process.env.E2E_TOOLS] }));
const { SERVER, makeWorkspace, lineOf } = require('../test/helpers');

const codeServer = process.env.CODE_SERVER;
const codeServerArgs = process.env.CODE_SERVER_ARGS.split('\n').filter(Boolean);
const sandbox = process.env.E2E_SANDBOX;
const out = process.env.E2E_OUT;
const port = Number(process.env.E2E_PORT || 18080);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll `predicate` until it returns something truthy; fail naming `what` after `timeoutMs`. */
async function waitFor(what, timeoutMs, predicate, everyMs = 500) {
  const deadline = Date.now() + timeoutMs;
  let lastError;
  while (Date.now() < deadline) {
    try {
      const value = await predicate();
      if (value) return value;
    } catch (error) {
      lastError = error;
    }
    await sleep(everyMs);
  }
  throw new Error(`timed out waiting for ${what}${lastError ? ` (last error: ${lastError.message})` : ''}`);
}

/** User settings, and the same as the remote machine's settings: the extension host runs on
 * the code-server side, where `machine-overridable` settings come from Machine/. */
function writeSettings() {
  const settings = JSON.stringify({
    'codekith.server.command': [SERVER, 'serve'],
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'telemetry.telemetryLevel': 'off',
  }, null, 2);
  for (const scope of ['User', 'Machine']) {
    const dir = path.join(sandbox, 'user-data', scope);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'settings.json'), settings);
  }
}

/** The codekith status bar item's text ('' while the extension has not shown it). */
const statusText = (page) => page.evaluate(() =>
  [...document.querySelectorAll('.statusbar-item')]
    .map((item) => item.getAttribute('aria-label') || item.innerText || '')
    .find((text) => /codekith/.test(text)) ?? '');

/** Open FILE at LINE:COL in the browser's window, through code-server's session socket. */
async function openInEditor(file, line, column) {
  await promisify(execFile)(codeServer, [...codeServerArgs, '--reuse-window', `${file}:${line}:${column}`], {
    timeout: 30_000,
  });
}

/** The active editor's file name and cursor line, from its tab and the status bar. */
const activeEditor = (page) => page.evaluate(() => {
  const tab = document.querySelector('.tabs-container .tab.active');
  const focused = Boolean(document.activeElement?.closest('.monaco-editor'));
  const cursor = [...document.querySelectorAll('.statusbar-item')]
    .map((item) => item.innerText).find((text) => /^Ln \d+, Col \d+/.test(text)) ?? '';
  return { tab: tab?.getAttribute('aria-label') ?? '', focused, cursor };
});

/** Run a command from the palette once its row is listed (typing early loses keys). */
async function runCommand(page, title) {
  await page.keyboard.press('F1');
  const input = await page.waitForSelector('.quick-input-widget input', { visible: true });
  await input.type(title); // F1 opens the palette with its '>' already typed
  await waitFor(`"${title}" in the command palette`, 20_000, () => page.evaluate((wanted) =>
    [...document.querySelectorAll('.quick-input-list .monaco-list-row')]
      .some((row) => row.innerText.includes(wanted)), title));
  await page.keyboard.press('Enter');
}

async function main() {
  const root = makeWorkspace();
  const file = path.join(root, 'shop/pricing.py');
  const line = lineOf(file, 'percent = 10');
  writeSettings();
  const server = spawn(codeServer, [
    ...codeServerArgs, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--disable-telemetry', '--disable-update-check', root,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.pipe(fs.createWriteStream(path.join(out, 'code-server.log')));
  server.stderr.pipe(fs.createWriteStream(path.join(out, 'code-server.err.log')));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    userDataDir: path.join(sandbox, 'chromium'),
    args: ['--no-sandbox', '--disable-gpu', '--window-size=1400,900'],
    defaultViewport: { width: 1400, height: 900 },
  });
  try {
    const page = await browser.newPage();
    await waitFor('code-server to listen', 120_000, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(root)}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: 180_000 });
    // The extension host runs once the workbench is up; the extension shows its status item.
    await waitFor('the codekith status bar item', 180_000, async () => /codekith/.test(await statusText(page)));

    await waitFor(`shop/pricing.py open at line ${line}`, 120_000, async () => {
      const editor = await activeEditor(page);
      if (/pricing\.py/.test(editor.tab) && editor.cursor.startsWith(`Ln ${line},`)) return true;
      await openInEditor(file, line, 5);
      await sleep(1500);
      return false;
    }, 100);

    await waitFor('the index to be ready (status bar "codekith" with the search icon)', 300_000, async () =>
      (await page.$('.statusbar [id*="codekith"] .codicon-search')) !== null);
    await page.screenshot({ path: path.join(out, 'status-bar.png') });

    let labels = '';
    await waitFor('related results in the Quick Pick', 180_000, async () => {
      await page.keyboard.press('Escape');
      await openInEditor(file, line, 5);
      await waitFor('the editor focused at compute_price', 30_000, async () => {
        const editor = await activeEditor(page);
        return editor.focused && editor.cursor.startsWith(`Ln ${line},`);
      });
      await runCommand(page, 'codekith: Find Related Code');
      labels = await waitFor('Quick Pick rows', 30_000, () => page.evaluate(() =>
        [...document.querySelectorAll('.quick-input-widget .monaco-list-row')]
          .map((row) => row.innerText).join('\n---\n')).then((text) => /compute_price/.test(text) && text));
      await page.screenshot({ path: path.join(out, 'last-attempt.png') });
      return /seed/.test(labels);
    }, 1000);
    const screenshot = path.join(out, 'find-related.png');
    await page.screenshot({ path: screenshot });
    fs.writeFileSync(path.join(out, 'find-related.txt'), labels);
    if (!/callee of shop\.pricing\.compute_price/.test(labels)) {
      throw new Error(`no callee in the Quick Pick:\n${labels}`);
    }
    console.log(`Find Related Code OK; screenshot: ${screenshot}\n${labels}`);
  } catch (error) {
    const pages = await browser.pages();
    if (pages.length) await pages[pages.length - 1].screenshot({ path: path.join(out, 'failure.png') }).catch(() => {});
    throw error;
  } finally {
    await browser.close();
    server.kill();
    fs.rmSync(root, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(`FAIL: ${error.stack || error}`);
  process.exit(1);
});
