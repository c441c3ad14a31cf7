'use strict';
/**
 * The compiled extension, activated against the vscode stub, drives its real LanguageClient
 * and the REAL `codekith serve` ($CODEKITH_SERVER, default ../.venv/bin/codekith) on a
 * temporary git workspace: commands round-trip, saves reach the server, settings restart it.
 */
const vscode = require('./setup');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { after, before, describe, test } = require('node:test');
const { SERVER, PYTHON, git, lineOf, makeWorkspace, mcpRequests, waitFor } = require('./helpers');

const stub = vscode.__stub;
const SKIP = !fs.existsSync(SERVER) && `the codekith server is not at ${SERVER} (set CODEKITH_SERVER)`;

describe('the extension with the real codekith server', { skip: SKIP, timeout: 240_000 }, () => {
  let root;
  let extension;
  let api;
  let context;
  let output;
  const mcpProviders = [];

  const pricing = () => path.join(root, 'shop/pricing.py');
  const logText = () => output.lines.join('\n');
  const newestPick = async (count) => waitFor('a quick pick', 60_000, () => stub.quickPicks.length >= count && stub.quickPicks[count - 1], 50);
  const statusItem = () => api.statusBar.item;
  /** Runs a search command on `stub.inputBox`'s query: the hits it showed, under its input box's title. */
  const searchedHits = async (command, title) => {
    const shown = stub.quickPicks.length;
    const result = vscode.commands.executeCommand(command);
    const pick = await newestPick(shown + 1);
    assert.equal(stub.inputBoxes[stub.inputBoxes.length - 1].title, title);
    pick.hide();
    await result;
    return pick.items.filter((i) => i.hit).map((i) => i.hit);
  };
  const folderStatus = async () => (await api.server.execute('codekith.status')).folders[0];

  before(async () => {
    root = makeWorkspace();
    vscode.workspace.workspaceFolders = [{ uri: vscode.Uri.file(root), name: 'shop', index: 0 }];
    stub.configuration = {
      'codekith.server.command': [SERVER, 'serve'],
      'codekith.debounceMs': 100,
    };
    // A VS Code with the MCP API (1.101+): the extension offers `codekith mcp` to it.
    vscode.lm = {
      registerMcpServerDefinitionProvider: (id, provider) => {
        mcpProviders.push({ id, provider });
        return new vscode.Disposable(() => undefined);
      },
    };
    extension = require('../out/extension');
    context = stub.extensionContext(path.join(root, '.vscode-storage'));
    api = extension.activate(context);
    output = stub.outputChannels.find((channel) => channel.name === 'codekith');
    await api.ready;
    assert.ok(api.server.running, `the server did not start:\n${logText()}`);
    await waitFor('the first index', 180_000, async () => {
      const folder = await folderStatus();
      return folder.ready && !folder.indexing && (folder.runs ?? []).length > 0;
    }, 500);
  });

  after(async () => {
    delete vscode.lm;
    await extension?.deactivate();
    for (const disposable of context?.subscriptions ?? []) {
      disposable.dispose();
    }
    if (root) {
      // A child the server started (Jedi, an MCP server) may still be finishing a write
      // into .codekith: retry on ENOTEMPTY instead of failing the suite's teardown.
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
    }
  });

  test('starts the server with the logged command and shows $/progress in the status bar', async () => {
    assert.ok(logText().includes(`Launch command (setting:command): ${SERVER} serve   [cwd: ${root}]`), logText());
    assert.ok(logText().includes('initializationOptions: {"debounceMs":100}'), logText());
    const progress = api.statusBar.progressLog;
    assert.ok(progress.some((p) => p.kind === 'begin' && p.title === 'codekith: indexing'), JSON.stringify(progress));
    assert.ok(progress.some((p) => p.kind === 'report' && /chunks/.test(p.message)), JSON.stringify(progress));
    assert.ok(progress.some((p) => p.kind === 'end' && /files indexed/.test(p.message)), JSON.stringify(progress));
    assert.ok(statusItem().history.some((text) => /^\$\(sync~spin\) codekith \d+%$/.test(text)), statusItem().history.join(' | '));
    await api.server.poll();
    assert.equal(statusItem().text, '$(search) codekith');
    assert.match(statusItem().tooltip, /chunks indexed, up to date with HEAD/);
  });

  test('Find Related Code at the cursor: reasons, path and score; previews, then opens the pick', async () => {
    const line = lineOf(pricing(), 'percent = 10');
    await stub.openEditor(pricing(), new vscode.Selection(line - 1, 4, line - 1, 4));
    const shown = stub.quickPicks.length;
    const result = vscode.commands.executeCommand('codekith.findRelated');
    const pick = await newestPick(shown + 1);
    const labels = pick.items.map((i) => `${i.label} | ${i.description} | ${i.detail}`);
    const seed = pick.items.find((i) => i.hit.qualname === 'shop.pricing.compute_price');
    assert.ok(seed, labels.join('\n'));
    assert.equal(seed.description, 'seed');
    assert.equal(seed.label, '$(symbol-function) shop.pricing.compute_price');
    assert.match(seed.detail, /^shop\/pricing\.py:\d+-\d+ · score \d\.\d{3}/);
    const callee = pick.items.find((i) => i.description === 'callee of shop.pricing.compute_price');
    assert.ok(callee, labels.join('\n'));
    assert.equal(callee.hit.qualname, 'shop.pricing.apply_discount');
    assert.match(pick.title, /^Related to shop\/pricing\.py:\d+/);

    const opened0 = stub.shownDocuments.length;
    pick.setActive(callee);
    await waitFor('the preview', 5_000, () => stub.shownDocuments.length > opened0, 10);
    const preview = stub.shownDocuments[stub.shownDocuments.length - 1];
    assert.equal(preview.uri, vscode.Uri.file(pricing()).toString());
    assert.equal(preview.options.preview, true);
    assert.equal(preview.options.preserveFocus, true);
    assert.equal(pick.visible, true, 'previewing keeps the pick open');

    pick.accept(callee);
    const opened = await result;
    assert.equal(opened.qualname, 'shop.pricing.apply_discount');
    assert.ok(opened.reason.startsWith('callee of'));
    const last = stub.shownDocuments[stub.shownDocuments.length - 1];
    assert.equal(last.options.preview, false);
    assert.equal(last.options.selection.start.line, callee.hit.start_line - 1);
    assert.equal(vscode.window.activeTextEditor.selection.start.line, callee.hit.start_line - 1);
  });

  test('Find Related Tests ranks a test that calls the code with the project\'s own callers', async () => {
    const line = lineOf(pricing(), 'def apply_discount');
    await stub.openEditor(pricing(), new vscode.Selection(line - 1, 4, line - 1, 4));
    const testScore = async (command) => {
      const shown = stub.quickPicks.length;
      const result = vscode.commands.executeCommand(command);
      const pick = await newestPick(shown + 1);
      const labels = pick.items.map((i) => `${i.label} | ${i.description} | ${i.detail}`).join('\n');
      const test = pick.items.find((i) => i.hit.qualname === 'tests.test_pricing.test_a_tenth_off');
      const own = pick.items.find((i) => i.hit.qualname === 'shop.pricing.compute_price');
      assert.ok(test && own, labels);
      assert.equal(test.description, 'caller of shop.pricing.apply_discount');
      pick.hide();
      await result;
      return { title: pick.title, test: test.hit.score, own: own.hit.score };
    };
    const plain = await testScore('codekith.findRelated');
    const asked = await testScore('codekith.findRelatedTests');
    assert.match(asked.title, /^Related tests and code to shop\/pricing\.py:\d+/);
    // a test gives up 40% of its score in a bundle unless tests are asked for
    assert.ok(Math.abs(asked.test / asked.own / (plain.test / plain.own) - 1 / 0.6) < 0.05, JSON.stringify({ plain, asked }));
  });

  test('Find Related Code on a selection relates the selected text; Escape returns to the editor', async () => {
    const file = path.join(root, 'shop/mail.py');
    const line = lineOf(file, 'Email the customer');
    const text = fs.readFileSync(file, 'utf8').split('\n')[line - 1];
    const editor = await stub.openEditor(file, new vscode.Selection(line - 1, 0, line - 1, text.length));
    const shown = stub.quickPicks.length;
    const result = vscode.commands.executeCommand('codekith.findRelated');
    const pick = await newestPick(shown + 1);
    assert.match(pick.title, /Email the customer a receipt/);
    const item = pick.items.find((i) => i.hit.qualname === 'shop.mail.send_receipt');
    assert.ok(item, pick.items.map((i) => i.label).join('\n'));
    pick.setActive(pick.items[pick.items.length - 1]);
    pick.hide();
    assert.equal(await result, undefined);
    await waitFor('the origin editor back', 5_000, () => vscode.window.activeTextEditor.document === editor.document, 20);
  });

  test('code lenses run Find Related Code instead of dropping the raw bundle', async () => {
    const provider = stub.registeredProviders.find((p) => p.kind === 'registerCodeLensProvider');
    assert.ok(provider, 'the client registered no code lens provider');
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(pricing()));
    const token = new vscode.CancellationTokenSource().token;
    const lenses = await provider.provider.provideCodeLenses(document, token);
    const lens = lenses.find((l) => l.range.start.line === lineOf(pricing(), 'def compute_price') - 1);
    assert.ok(lens, JSON.stringify(lenses.map((l) => l.command)));
    assert.equal(lens.command.command, 'codekith.findRelated');
    assert.match(lens.command.title, /1 caller · 1 callee · related/);
    const shown = stub.quickPicks.length;
    const result = vscode.commands.executeCommand(lens.command.command, ...lens.command.arguments);
    const pick = await newestPick(shown + 1);
    assert.ok(pick.items.some((i) => i.description === 'seed' && i.hit.qualname === 'shop.pricing.compute_price'));
    pick.hide();
    await result;
  });

  test('Search Codebase: input box, then hits in a QuickPick', async () => {
    stub.inputBox = () => 'reduce an amount by a percentage';
    const shown = stub.quickPicks.length;
    const result = vscode.commands.executeCommand('codekith.searchCodebase');
    const pick = await newestPick(shown + 1);
    assert.equal(stub.inputBoxes[stub.inputBoxes.length - 1].title, 'codekith: Search Codebase');
    assert.equal(pick.items[0].hit.qualname, 'shop.pricing.apply_discount', pick.items.map((i) => i.label).join('\n'));
    assert.match(pick.items[0].description, /^shop\/pricing\.py:\d+-\d+$/);
    assert.match(pick.items[0].detail, /^score \d\.\d{3} · def apply_discount\(amount, percent\):/);
    pick.accept(pick.items[0]);
    const hit = await result;
    assert.equal(hit.qualname, 'shop.pricing.apply_discount');
    stub.inputBox = () => undefined;
  });

  test('Search Codebase lists tests apart, under a separator; Search Tests and Code among the hits', async () => {
    stub.inputBox = () => 'a tenth off the amount';
    const picked = async (command) => {
      const shown = stub.quickPicks.length;
      const result = vscode.commands.executeCommand(command);
      const pick = await newestPick(shown + 1);
      pick.hide();
      await result;
      const labels = pick.items.map((i) => (i.hit ? i.hit.qualname : `--${i.label}--`));
      const separator = pick.items.findIndex((i) => i.label === 'Tests' && i.kind === vscode.QuickPickItemKind.Separator);
      const rank = pick.items.findIndex((i) => i.hit && i.hit.qualname === 'tests.test_pricing.test_a_tenth_off');
      return { items: pick.items, labels: labels.join('\n'), separator, rank };
    };
    const plain = await picked('codekith.searchCodebase');
    // unless tests are asked for, the hits hold none and the tests come after them, apart
    assert.ok(plain.separator > 0 && plain.rank > plain.separator, plain.labels);
    assert.ok(plain.items.slice(0, plain.separator).every((i) => !i.hit.path.startsWith('tests/')), plain.labels);
    const asked = await picked('codekith.searchTests');
    assert.equal(asked.separator, -1, asked.labels);
    assert.ok(asked.rank >= 0 && asked.rank < plain.rank, asked.labels);
    stub.inputBox = () => undefined;
  });

  test('Search Codebase lists the documentation after the code, under a separator', async () => {
    stub.inputBox = () => 'how long until orders ship';
    const shown = stub.quickPicks.length;
    const result = vscode.commands.executeCommand('codekith.searchCodebase');
    const pick = await newestPick(shown + 1);
    pick.hide();
    await result;
    const labels = pick.items.map((i) => (i.hit ? i.hit.kind : `--${i.label}--`));
    const separator = pick.items.findIndex((i) => i.label === 'Documentation' && i.kind === vscode.QuickPickItemKind.Separator);
    assert.ok(separator > 0, labels.join(', '));
    assert.ok(pick.items.slice(0, separator).every((i) => !i.hit || i.hit.kind !== 'section'), labels.join(', '));
    const documentation = pick.items.slice(separator + 1);
    assert.ok(documentation.length > 0 && documentation.every((i) => i.hit.kind === 'section'), labels.join(', '));
    stub.inputBox = () => undefined;
  });

  test('Search Code Only leaves out the documentation section the plain search lists', async () => {
    stub.inputBox = () => 'how long until orders ship';
    const kinds = async (command, title) => (await searchedHits(command, title)).map((hit) => hit.kind);
    const plain = await kinds('codekith.searchCodebase', 'codekith: Search Codebase');
    const code = await kinds('codekith.searchCode', 'codekith: Search Code Only');
    assert.ok(plain.includes('section'), plain.join(', '));
    assert.ok(code.length > 0 && !code.includes('section'), code.join(', '));
    stub.inputBox = () => undefined;
  });

  test('Copy Related Context for AI puts the markdown bundle on the clipboard', async () => {
    const line = lineOf(pricing(), 'percent = 10');
    await stub.openEditor(pricing(), new vscode.Selection(line - 1, 0, line - 1, 0));
    stub.clipboard = '';
    const markdown = await vscode.commands.executeCommand('codekith.copyRelatedContext');
    assert.equal(stub.clipboard, markdown);
    assert.ok(markdown.startsWith(`# Code related to: shop/pricing.py:${line}\n`), markdown);
    assert.match(markdown, /\n## shop\.pricing\.compute_price \(seed\)\n`shop\/pricing\.py:\d+-\d+` · function · score \d\.\d{3}\n\n```python\ndef compute_price/);
    assert.match(markdown, /## shop\.pricing\.apply_discount \(callee of shop\.pricing\.compute_price\)/);
    const info = stub.messages[stub.messages.length - 1];
    assert.match(info.message, /copied \d+ related items/);
  });

  test('Show Index Status reports the folder, its chunks and freshness', async () => {
    const before = stub.messages.length;
    const status = await vscode.commands.executeCommand('codekith.showStatus');
    assert.equal(status.folders.length, 1);
    assert.equal(status.folders[0].root, root);
    assert.ok(status.folders[0].chunks > 0);
    assert.ok(status.folders[0].files >= 5); // the five shop modules, and any other text file (.gitignore)
    const message = stub.messages.slice(before).find((m) => m.level === 'info');
    assert.match(message.message, new RegExp(`^codekith ${status.version.replace(/\./g, '\\.')}: ${path.basename(root)}: ${status.folders[0].chunks} chunks in ${status.folders[0].files} files, up to date`));
    assert.deepEqual(message.items, ['Show Details', 'Reindex']);
    assert.ok(logText().includes(`${root}: ready`));
  });

  test('Reindex Workspace runs an index and reports it', async () => {
    const before = stub.messages.length;
    const result = await vscode.commands.executeCommand('codekith.reindexWorkspace');
    assert.equal(result.folders, 1);
    assert.deepEqual(result.errors, []);
    assert.ok(result.chunks > 0);
    const progress = stub.progress[stub.progress.length - 1];
    assert.equal(progress.options.title, 'codekith: reindexing the workspace');
    assert.match(stub.messages.slice(before).map((m) => m.message).join('\n'), /files indexed, \d+ removed/);
  });

  test('didSave reaches the server: a saved new function becomes searchable', async () => {
    const saved = [];
    const feature = api.server.client.getFeature('textDocument/didSave');
    const listener = feature.onNotificationSent((event) => saved.push(event.params.textDocument.uri));
    const query = 'reward points a customer earns for a purchase';
    const found = async () => (await api.server.execute('codekith.search', { query, k: 3 })).hits.map((h) => h.qualname);
    assert.ok(!(await found()).includes('shop.pricing.loyalty_points'));

    const text = fs.readFileSync(pricing(), 'utf8') +
      '\n\ndef loyalty_points(amount):\n    """Reward points a customer earns for a purchase amount."""\n    return int(amount // 10)\n';
    await stub.saveFile(pricing(), text);
    await waitFor('the didSave notification', 5_000, () => saved.length > 0, 20);
    assert.deepEqual(saved, [vscode.Uri.file(pricing()).toString()]);
    listener.dispose();
    await waitFor('the saved function in search results', 60_000, async () => (await found()).includes('shop.pricing.loyalty_points'), 500);
  });

  test('a script written outside the editor reaches the server through the file watcher', async () => {
    // The server registers `**/*`: a script has no suffix, so a watcher of known suffixes
    // never reported it (nor any text file), and it stayed out until the next restart.
    const script = path.join(root, 'bin/restock');
    fs.mkdirSync(path.dirname(script), { recursive: true });
    fs.writeFileSync(script, '#!/bin/bash\n# Order more units of every product that ran out.\n'
      + 'reorder_sold_out() {\n  echo restock\n}\n');
    const query = { query: 'order more units of products that ran out', k: 1 };
    const top = async () => (await api.server.execute('codekith.search', query)).hits[0]?.qualname;
    assert.notEqual(await top(), 'bin.restock.reorder_sold_out');
    assert.ok(stub.fileChanged(script, 'create') > 0, 'no registered watcher matches bin/restock');
    await waitFor('the script in search results', 60_000, async () => (await top()) === 'bin.restock.reorder_sold_out', 500);
  });

  test('codekith/indexed after a save refreshes the status bar without waiting for a poll', async () => {
    const runs = api.server.indexedRuns;
    const chunks = (await folderStatus()).chunks;
    const text = fs.readFileSync(pricing(), 'utf8') +
      '\n\ndef gift_wrap(order):\n    """Wrap every item of an order as a gift."""\n    return order\n';
    await stub.saveFile(pricing(), text);
    await waitFor('codekith/indexed naming the saved file', 60_000, () =>
      api.server.indexedRuns > runs && api.server.lastIndexed.indexed.includes(vscode.Uri.file(pricing()).toString()), 50);
    // The status bar is refreshed by the notification (its idle poll is 30 s away).
    await waitFor('the status bar to show the new chunk', 10_000, () => api.statusBar.status?.folders[0].chunks > chunks, 50);
  });

  test('the status bar warns when the index is behind HEAD', async () => {
    // A commit made outside the editor (no save, no watcher event): HEAD moves past the index.
    fs.writeFileSync(path.join(root, 'shop/tax.py'), 'def vat(amount):\n    """Value added tax owed on an amount."""\n    return amount * 0.2\n');
    git(root, 'add', '-A');
    git(root, 'commit', '-qm', 'tax');
    await waitFor('a stale status', 20_000, async () => {
      await api.server.poll();
      return statusItem().text === '$(warning) codekith: stale';
    }, 500);
    assert.equal(statusItem().backgroundColor.id, 'statusBarItem.warningBackground');
    const status = await vscode.commands.executeCommand('codekith.showStatus');
    assert.equal(status.folders[0].fresh, false);
    assert.ok(status.folders[0].stale.includes('shop/tax.py'), JSON.stringify(status.folders[0]));
    assert.match(stub.messages[stub.messages.length - 1].message, /behind HEAD \(\d+ stale files\)/);

    await vscode.commands.executeCommand('codekith.reindexWorkspace');
    // The run's answer comes when the chunks are searchable; the Jedi pass may still be running.
    await waitFor('a fresh, idle status', 60_000, async () => {
      await api.server.poll();
      return statusItem().text === '$(search) codekith';
    }, 500);
  });

  test('a codekith.* setting change restarts the server with the new initializationOptions', async () => {
    const oldClient = api.server.client;
    const starts = api.server.starts;
    stub.setConfiguration({ 'codekith.k': 2 });
    await waitFor('a restart', 30_000, () => api.server.starts === starts + 1 && api.server.running, 100);
    await api.server.settled();
    assert.notEqual(api.server.client, oldClient);
    assert.equal(oldClient.state, 1 /* State.Stopped */);
    assert.ok(logText().includes('Restarting the server: settings changed (codekith.k)'), logText());
    assert.ok(logText().includes('initializationOptions: {"k":2,"debounceMs":100}'), logText());
    const result = await waitFor('search after restart', 60_000, async () => {
      try {
        return await api.server.execute('codekith.search', { query: 'apply a discount' });
      } catch {
        return undefined;
      }
    }, 500);
    assert.equal(result.hits.length, 2, 'the new server uses k=2 from the settings');

    // trace.server is applied live by the client: no restart.
    stub.setConfiguration({ 'codekith.trace.server': 'messages' });
    await new Promise((resolve) => setTimeout(resolve, 600));
    assert.equal(api.server.starts, starts + 1);
  });

  test('the codekith.restart command restarts the server', async () => {
    const starts = api.server.starts;
    await vscode.commands.executeCommand('codekith.restart');
    assert.equal(api.server.starts, starts + 1);
    assert.ok(api.server.running);
    const status = await api.server.execute('codekith.status');
    assert.equal(status.folders[0].root, root);
  });

  test('a server that crashes is restarted and the status bar recovers', async () => {
    const client = api.server.client;
    const pid = client._serverProcess.pid;
    process.kill(pid, 'SIGKILL');
    await waitFor('a new server process', 30_000, () => client._serverProcess && client._serverProcess.pid !== pid && api.server.running, 100);
    assert.equal(api.server.client, client, 'the same client restarted its server');
    assert.match(logText(), /The server exited; restarting \(1\/3\)/);
    const status = await waitFor('status from the new process', 30_000, async () => {
      try {
        return await api.server.execute('codekith.status');
      } catch {
        return undefined;
      }
    }, 200);
    assert.equal(status.folders[0].root, root);
    await waitFor('the status bar back to normal', 10_000, () => statusItem().text === '$(search) codekith', 100);
  });

  test('offers codekith mcp to the agent mode: the definition VS Code starts answers over MCP', async () => {
    assert.equal(api.mcpRegistered, true);
    assert.deepEqual(mcpProviders.map((p) => p.id), ['codekith.mcp']);
    const definitions = await mcpProviders[0].provider.provideMcpServerDefinitions();
    assert.deepEqual(
      definitions.map((d) => [d.label, d.command, d.args]),
      [['codekith: shop', SERVER, ['mcp', '--root', root]]], // the language server's executable
    );
    const [init, tools, status] = await mcpRequests(definitions[0], [
      ['tools/list', {}],
      ['tools/call', { name: 'index_status', arguments: {} }],
    ]);
    assert.equal(init.serverInfo.name, 'codekith');
    const names = tools.tools.map((t) => t.name).sort();
    assert.deepEqual(names, ['call_graph', 'feedback', 'find_symbol', 'get_code', 'index_status', 'reindex', 'related_code', 'search_code']);
    // The index the language server built answers the assistant too.
    assert.equal(status.isError, false, JSON.stringify(status));
    assert.equal(status.structuredContent.ready, true);
    assert.equal(status.structuredContent.root, root);
    assert.ok(status.structuredContent.chunks > 5, JSON.stringify(status.structuredContent));
  });

  test('a server that cannot start gives an actionable error with Open Settings and Show Log', async () => {
    stub.answers.error = () => 'Show Log';
    const shownBefore = output.shown;
    let before = stub.messages.length;
    stub.setConfiguration({ 'codekith.server.command': ['/nonexistent/bin/codekith', 'serve'] });
    await waitFor('the failure', 30_000, () => api.statusBar.state === 'failed', 50);
    await api.server.settled();
    let errors = stub.messages.slice(before).filter((m) => m.level === 'error');
    assert.equal(errors.length, 1, JSON.stringify(errors));
    assert.match(errors[0].message, /could not start\. \/nonexistent\/bin\/codekith does not exist \(launch command: \/nonexistent\/bin\/codekith serve\)/);
    assert.deepEqual(errors[0].items, ['Open Settings', 'Show Log', 'Retry']);
    await waitFor('the log shown', 5_000, () => output.shown > shownBefore, 20);
    assert.equal(statusItem().text, '$(error) codekith');

    // A command that starts but dies before answering initialize.
    before = stub.messages.length;
    stub.answers.error = () => 'Open Settings';
    stub.setConfiguration({ 'codekith.server.command': [PYTHON, '-c', 'import sys; sys.exit(3)'] });
    await waitFor('the second failure', 30_000, () => stub.messages.slice(before).some((m) => m.level === 'error'), 50);
    await api.server.settled();
    errors = stub.messages.slice(before).filter((m) => m.level === 'error');
    assert.equal(errors.length, 1, `only our message, not the client's too: ${JSON.stringify(errors)}`);
    assert.match(errors[0].message, /launch command: .*python -c "import sys; sys\.exit\(3\)"/);
    await waitFor('Open Settings', 5_000, () => stub.executedCommands.some((c) => c.id === 'workbench.action.openSettings' && c.args[0] === 'codekith.server'), 20);

    // Commands then explain that the server is not running.
    before = stub.messages.length;
    stub.answers.error = () => undefined;
    assert.equal(await vscode.commands.executeCommand('codekith.showStatus'), undefined);
    const notRunning = stub.messages.slice(before).find((m) => m.level === 'error');
    assert.equal(notRunning.message, 'codekith: the language server is not running.');
    assert.deepEqual(notRunning.items, ['Restart', 'Show Log']);

    // Fixing the setting brings it back.
    stub.setConfiguration({ 'codekith.server.command': [SERVER, 'serve'] });
    await waitFor('a healthy restart', 30_000, () => api.server.running, 100);
  });
});
