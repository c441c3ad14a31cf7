'use strict';
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const CLIENT_ROOT = path.resolve(__dirname, '..');
/** The real server: $CODEKITH_SERVER, else ../.venv/bin/codekith next to client-vscode. */
const SERVER = path.resolve(CLIENT_ROOT, process.env.CODEKITH_SERVER || '../.venv/bin/codekith');
const PYTHON = path.join(path.dirname(SERVER), 'python');

/** A small shop: pricing calls apply_discount, which calls log; models call pricing; a test
 * calls apply_discount. */
const SHOP = {
  'shop/__init__.py': '',
  'shop/util.py': `
def log(message):
    """Write a diagnostic message to standard error."""
    print(message)
`,
  'shop/pricing.py': `
from shop.util import log


def apply_discount(amount, percent):
    """Reduce an amount of money by a percentage discount."""
    log("discount")
    return amount * (100 - percent) / 100


def compute_price(unit_price, quantity):
    """Price of a quantity of items after the volume discount."""
    percent = 10 if quantity > 100 else 0
    return apply_discount(unit_price * quantity, percent)
`,
  'shop/models.py': `
from shop.pricing import compute_price


class Item:
    """A product with a name and a unit price."""

    def __init__(self, name, price):
        self.name = name
        self.price = price

    def total(self, quantity):
        """What buying \`quantity\` of this item costs."""
        return compute_price(self.price, quantity)
`,
  'shop/mail.py': `
def send_receipt(email, total):
    """Email the customer a receipt for the amount paid."""
    return f"to {email}: {total}"
`,
  'tests/test_pricing.py': `
from shop.pricing import apply_discount


def test_a_tenth_off():
    assert apply_discount(200, 10) == 180
`,
  'docs/shipping.md': `
# Shipping

Orders ship within two business days of their payment.
`,
};

function git(root, ...args) {
  return execFileSync('git', args, {
    cwd: root,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'test',
      GIT_AUTHOR_EMAIL: 'test@example.invalid',
      GIT_COMMITTER_NAME: 'test',
      GIT_COMMITTER_EMAIL: 'test@example.invalid',
    },
  });
}

/** A temporary git repository holding SHOP, committed. */
function makeWorkspace() {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'codekith-vscode-')));
  for (const [name, text] of Object.entries(SHOP)) {
    const file = path.join(root, name);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text.replace(/^\n/, ''));
  }
  fs.writeFileSync(path.join(root, '.gitignore'), '.codekith/\n');
  git(root, 'init', '-q', '-b', 'main');
  git(root, 'add', '-A');
  git(root, 'commit', '-qm', 'shop');
  return root;
}

async function waitFor(what, timeoutMs, predicate, intervalMs = 250) {
  const deadline = Date.now() + timeoutMs;
  let last;
  while (Date.now() < deadline) {
    last = await predicate();
    if (last) {
      return last;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
}

/** The 1-based line of the first line containing `needle`. */
function lineOf(file, needle) {
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const index = lines.findIndex((line) => line.includes(needle));
  if (index < 0) {
    throw new Error(`${needle} not in ${file}`);
  }
  return index + 1;
}

/**
 * Starts an MCP server the way VS Code starts a stdio definition (command, args, env), does
 * the initialize handshake, sends `requests` ([method, params] pairs) one by one and returns
 * their results; JSON-RPC over newline-delimited JSON, as the MCP stdio transport defines.
 */
async function mcpRequests(definition, requests, timeoutMs = 120_000) {
  const { spawn } = require('node:child_process');
  const child = spawn(definition.command, definition.args, {
    env: { ...process.env, ...(definition.env ?? {}) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const pending = new Map();
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    let newline;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      const message = line ? JSON.parse(line) : undefined;
      if (message && message.id !== undefined && pending.has(message.id)) {
        pending.get(message.id)(message);
      }
    }
  });
  let id = 0;
  const send = (method, params) =>
    new Promise((resolve, reject) => {
      id += 1;
      const timer = setTimeout(() => reject(new Error(`${method}: no answer in ${timeoutMs} ms; stderr:\n${stderr}`)), timeoutMs);
      pending.set(id, (message) => {
        clearTimeout(timer);
        message.error ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`)) : resolve(message.result);
      });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  try {
    const init = await send('initialize', {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'codekith-vscode-test', version: '0' },
    });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    const results = [init];
    for (const [method, params] of requests) {
      results.push(await send(method, params));
    }
    return results;
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    const killer = setTimeout(() => child.kill(), 30_000);
    await exited;
    clearTimeout(killer);
  }
}

module.exports = { CLIENT_ROOT, SERVER, PYTHON, SHOP, git, makeWorkspace, waitFor, lineOf, mcpRequests };
