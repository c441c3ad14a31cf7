'use strict';
/**
 * Real VS Code (code-server) + headless Chromium: open a workspace, run "codekith: Find Related
 * Code" at compute_price, check the Quick Pick shows the seed and a callee, save a screenshot.
 * Run by scripts/e2e_code_server.sh (which installs code-server, puppeteer-core, the .vsix).
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');
const puppeteer = require(require.resolve('puppeteer-core', { paths: [process.env.E2E_TOOLS] }));
const { SERVER, makeWorkspace, lineOf } = require('../test/helpers');

const codeServer = process.env.CODE_SERVER;
const data = process.env.E2E_DATA;
const out = process.env.E2E_OUT;
const port = Number(process.env.E2E_PORT || 18080);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(what, timeoutMs, predicate) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await predicate().catch(() => undefined);
    if (value) return value;
    await sleep(500);
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function main() {
  const root = makeWorkspace();
  const settingsDir = path.join(data, 'User');
  fs.mkdirSync(settingsDir, { recursive: true });
  fs.writeFileSync(path.join(settingsDir, 'settings.json'), JSON.stringify({
    'codekith.server.command': [SERVER, 'serve'],
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
  }, null, 2));
  const server = spawn(codeServer, [
    '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry',
    '--user-data-dir', data, '--extensions-dir', path.join(path.dirname(data), 'ext'), root,
  ], { stdio: ['ignore', 'pipe', 'pipe'] });
  server.stdout.pipe(fs.createWriteStream(path.join(out, 'code-server.log')));
  server.stderr.pipe(fs.createWriteStream(path.join(out, 'code-server.err.log')));
  const browser = await puppeteer.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--window-size=1400,900'],
    defaultViewport: { width: 1400, height: 900 },
  });
  try {
    const page = await browser.newPage();
    await waitFor('code-server to listen', 60_000, async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).ok);
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(root)}`, { waitUntil: 'domcontentloaded' });
    await page.waitForSelector('.monaco-workbench', { timeout: 120_000 });
    await sleep(6000); // the extension host starts after the workbench appears

    const palette = async (text) => {
      await page.keyboard.press('F1');
      await page.waitForSelector('.quick-input-widget input', { visible: true });
      await page.keyboard.type(text);
      await sleep(800);
      await page.keyboard.press('Enter');
    };
    // Open shop/pricing.py at compute_price.
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyP');
    await page.keyboard.up('Control');
    await page.waitForSelector('.quick-input-widget input', { visible: true });
    await page.keyboard.type('shop/pricing.py');
    await sleep(1500);
    await page.keyboard.press('Enter');
    await sleep(2000);
    const goToComputePrice = async () => {
      await page.keyboard.down('Control');
      await page.keyboard.press('KeyG');
      await page.keyboard.up('Control');
      await page.waitForSelector('.quick-input-widget input', { visible: true });
      await page.keyboard.type(String(lineOf(path.join(root, 'shop/pricing.py'), 'percent = 10')));
      await sleep(500);
      await page.keyboard.press('Enter');
      await sleep(500);
    };
    await goToComputePrice();
    await sleep(1000);

    // Wait for the index: the status bar item says "codekith" without a spinner.
    await waitFor('the codekith status bar item ready', 180_000, async () => {
      const text = await page.evaluate(() => document.querySelector('.statusbar')?.innerText ?? '');
      return /codekith/.test(text) && !/codekith \d+%/.test(text) &&
        (await page.$('.statusbar [id*="codekith"] .codicon-search')) !== null;
    });
    await page.screenshot({ path: path.join(out, 'status-bar.png') });

    let labels = '';
    await waitFor('related results', 120_000, async () => {
      await page.keyboard.press('Escape');
      await goToComputePrice();
      await palette('codekith: Find Related Code');
      await sleep(4000);
      await page.screenshot({ path: path.join(out, 'last-attempt.png') });
      labels = await page.evaluate(() =>
        [...document.querySelectorAll('.quick-input-widget .monaco-list-row')].map((row) => row.innerText).join('\n---\n'));
      return /compute_price/.test(labels) && /seed/.test(labels);
    });
    const screenshot = path.join(out, 'find-related.png');
    await page.screenshot({ path: screenshot });
    fs.writeFileSync(path.join(out, 'find-related.txt'), labels);
    if (!/callee of shop\.pricing\.compute_price/.test(labels)) {
      throw new Error(`no callee in the Quick Pick:\n${labels}`);
    }
    console.log(`Find Related Code OK; screenshot: ${screenshot}\n${labels}`);
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
