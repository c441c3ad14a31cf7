'use strict';
/** Fast tests of the pieces that need no server: launch rules, settings, MCP registration, status bar. */
const vscode = require('./setup');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { test } = require('node:test');
const { PYTHON } = require('./helpers');

const { DOCUMENT_SELECTOR, LANGUAGES } = require('../out/languages');
const launch = require('../out/launch');
const mcp = require('../out/mcp');
const settings = require('../out/settings');
const python = require('../out/python');
const { IndexStatusBar } = require('../out/statusBar');
const stub = vscode.__stub;

test('commandArgv keeps arrays and splits strings with quotes', () => {
  assert.deepEqual(launch.commandArgv(['/a b/codekith', 'serve']), ['/a b/codekith', 'serve']);
  assert.deepEqual(launch.commandArgv('/opt/codekith serve'), ['/opt/codekith', 'serve']);
  assert.deepEqual(launch.commandArgv('"/a b/python" -m codekith.cli serve'), ['/a b/python', '-m', 'codekith.cli', 'serve']);
  assert.deepEqual(launch.commandArgv(''), []);
  assert.deepEqual(launch.commandArgv([]), []);
  assert.deepEqual(launch.commandArgv(undefined), []);
});

test('resolveLaunch: command setting, then python setting, then the Python extension, then PATH', async () => {
  const never = async () => assert.fail('should not be asked');
  assert.deepEqual(await launch.resolveLaunch({ command: ['/x/codekith', 'serve'], python: '/py', pythonExtension: never }), {
    command: '/x/codekith',
    args: ['serve'],
    source: 'setting:command',
  });
  assert.deepEqual(await launch.resolveLaunch({ command: [], python: '/venv/bin/python', pythonExtension: never }), {
    command: '/venv/bin/python',
    args: ['-m', 'codekith.cli', 'serve'],
    source: 'setting:python',
  });
  const fromExtension = await launch.resolveLaunch({
    command: '',
    python: '',
    pythonExtension: async () => '/env/bin/python',
    hasCodekith: async () => true,
    which: () => assert.fail('PATH is the last resort'),
  });
  assert.deepEqual(fromExtension, { command: '/env/bin/python', args: ['-m', 'codekith.cli', 'serve'], source: 'python-extension' });

  const logged = [];
  const fromPath = await launch.resolveLaunch({
    pythonExtension: async () => '/env/without/codekith/python',
    hasCodekith: async () => false,
    which: (name) => `/usr/local/bin/${name}`,
    log: (m) => logged.push(m),
  });
  assert.deepEqual(fromPath, { command: '/usr/local/bin/codekith', args: ['serve'], source: 'path' });
  assert.match(logged.join('\n'), /cannot import codekith; trying PATH/);

  const brokenExtension = await launch.resolveLaunch({
    pythonExtension: async () => {
      throw new Error('API changed');
    },
    which: () => '/bin/codekith',
    log: () => undefined,
  });
  assert.equal(brokenExtension.source, 'path');

  await assert.rejects(launch.resolveLaunch({ which: () => undefined }), (error) => {
    assert.ok(error instanceof launch.LaunchError);
    assert.match(error.message, /codekith\.server\.command/);
    return true;
  });
});

test('which finds executables on PATH only', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'codekith-which-'));
  fs.writeFileSync(path.join(dir, 'codekith'), '#!/bin/sh\n', { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'notexec'), '', { mode: 0o644 });
  assert.equal(launch.which('codekith', dir), path.join(dir, 'codekith'));
  assert.equal(launch.which('notexec', dir), undefined);
  assert.equal(launch.which('missing', dir), undefined);
  assert.match(launch.executableProblem({ command: '/no/such/codekith', args: [], source: 'path' }), /does not exist/);
  assert.equal(launch.describeLaunch({ command: '/a b/py', args: ['-m', 'codekith.cli', 'serve'], source: 'path' }), '"/a b/py" -m codekith.cli serve');
});

test('canImportCodekith tells interpreters with codekith from those without', { skip: !fs.existsSync(PYTHON) && 'no venv python' }, async () => {
  assert.equal(await launch.canImportCodekith(PYTHON), true);
  assert.equal(await launch.canImportCodekith('/no/such/python'), false);
});

test('initializationOptions carry only the settings the user set', () => {
  stub.configuration = {};
  assert.deepEqual(settings.initializationOptions(), {});
  stub.configuration = {
    'codekith.exclude': ['build/**'],
    'codekith.maxFileBytes': 5000,
    'codekith.k': 7,
    'codekith.codeLens': false,
    'codekith.debounceMs': 50,
    'codekith.server.python': '/py',
    'codekith.trace.server': 'verbose',
  };
  assert.deepEqual(settings.initializationOptions(), {
    exclude: ['build/**'],
    maxFileBytes: 5000,
    k: 7,
    codeLens: false,
    debounceMs: 50,
  });
  assert.equal(settings.relatedDepth(), undefined);
  stub.configuration['codekith.depth'] = 2;
  assert.equal(settings.relatedDepth(), 2);
  assert.deepEqual(settings.serverSettings(), { command: [], python: '/py' });
  stub.configuration = {};
});

test('every setting the client forwards is a setting the server knows', { skip: !fs.existsSync(PYTHON) && 'no venv python' }, () => {
  const script = [
    'import dataclasses, json',
    'from codekith.config import Settings',
    'from codekith.lsp.options import SERVER_KEYS',
    'print(json.dumps([f.name for f in dataclasses.fields(Settings)] + list(SERVER_KEYS)))',
  ].join('\n');
  const known = new Set(JSON.parse(execFileSync(PYTHON, ['-c', script], { encoding: 'utf8' })));
  for (const key of [...settings.INDEX_SETTINGS, ...settings.SERVER_SWITCHES]) {
    const snake = key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    assert.ok(known.has(key) || known.has(snake), `${key} is not a server setting`);
  }
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  for (const key of [...settings.INDEX_SETTINGS, ...settings.SERVER_SWITCHES]) {
    assert.ok(manifest.contributes.configuration.properties[`codekith.${key}`], `codekith.${key} is not contributed`);
  }
});

test('the document selector and activation events cover every language the server indexes', { skip: !fs.existsSync(PYTHON) && 'no venv python' }, () => {
  const script = 'import json\nfrom codekith.languages import known_languages\nprint(json.dumps(sorted(known_languages())))';
  const indexed = JSON.parse(execFileSync(PYTHON, ['-c', script], { encoding: 'utf8' }));
  assert.deepEqual([...new Set(Object.values(LANGUAGES))].sort(), indexed);
  assert.deepEqual(DOCUMENT_SELECTOR.map((s) => s.language), Object.keys(LANGUAGES));
  assert.ok(DOCUMENT_SELECTOR.every((s) => s.scheme === 'file'));
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  for (const id of Object.keys(LANGUAGES)) {
    assert.ok(manifest.activationEvents.includes(`onLanguage:${id}`), `no onLanguage:${id} activation`);
  }
});

test('the Python extension API: environments first, then getExecutionDetails, absent is fine', async () => {
  stub.extensions = {};
  assert.equal(await python.activeInterpreter(), undefined);

  let activated = 0;
  stub.extensions['ms-python.python'] = {
    isActive: false,
    activate: async () => {
      activated += 1;
    },
    exports: {
      environments: {
        getActiveEnvironmentPath: () => ({ id: 'venv', path: '/proj/.venv' }),
        resolveEnvironment: async (env) => {
          assert.equal(env.path, '/proj/.venv');
          return { executable: { uri: vscode.Uri.file('/proj/.venv/bin/python') } };
        },
      },
    },
  };
  assert.equal(await python.activeInterpreter(), '/proj/.venv/bin/python');
  assert.equal(activated, 1);

  stub.extensions['ms-python.python'] = {
    isActive: true,
    exports: { settings: { getExecutionDetails: () => ({ execCommand: ['/usr/bin/python3.12'] }) } },
  };
  assert.equal(await python.activeInterpreter(), '/usr/bin/python3.12');

  stub.extensions['ms-python.python'] = { isActive: true, exports: {} };
  assert.equal(await python.activeInterpreter(), undefined);
  stub.extensions = {};
});

test('the status bar shows progress, readiness and a stale-index warning', () => {
  const bar = new IndexStatusBar();
  const item = stub.statusBarItems[stub.statusBarItems.length - 1];
  assert.equal(item.id, 'codekith.status');
  assert.ok(item.visible);
  bar.setState('starting');
  assert.match(item.text, /loading~spin/);
  bar.setState('running');
  bar.onProgress('t1', { kind: 'begin', title: 'codekith: indexing', percentage: 0 });
  bar.onProgress('t1', { kind: 'report', message: '5/10 chunks · embedding', percentage: 50 });
  assert.equal(item.text, '$(sync~spin) codekith 50%');
  assert.match(item.tooltip, /5\/10 chunks/);
  bar.onProgress('t1', { kind: 'end', message: 'done' });
  const folder = { root: '/ws', indexing: false, ready: true, last_error: '', chunks: 12, fresh: true, stale: [], dirty: [] };
  bar.setStatus({ version: '0.1.0', folders: [folder] });
  assert.equal(item.text, '$(search) codekith');
  assert.equal(item.backgroundColor, undefined);
  bar.setStatus({ version: '0.1.0', folders: [{ ...folder, fresh: false, stale: ['a.py', 'b.py'] }] });
  assert.equal(item.text, '$(warning) codekith: stale');
  assert.equal(item.backgroundColor.id, 'statusBarItem.warningBackground');
  assert.match(item.tooltip, /behind HEAD \(2 changed files/);
  bar.setState('failed', 'no codekith');
  assert.equal(item.command, 'codekith.showLog');
  bar.dispose();
});

test('mcpArgs: the language server launch with serve swapped for mcp --root FOLDER', () => {
  const python = { command: '/venv/bin/python', args: ['-m', 'codekith.cli', 'serve'], source: 'python-extension' };
  assert.deepEqual(mcp.mcpArgs(python, '/ws'), ['-m', 'codekith.cli', 'mcp', '--root', '/ws']);
  const onPath = { command: '/usr/bin/codekith', args: ['serve', '--tcp', '9000'], source: 'setting:command' };
  assert.deepEqual(mcp.mcpArgs(onPath, '/a b'), ['mcp', '--root', '/a b']);
  assert.equal(mcp.mcpArgs({ command: '/opt/run-codekith.sh', args: [], source: 'setting:command' }, '/ws'), undefined);
});

/** A VS Code with the MCP API (1.101+): records registrations, builds real definitions. */
function withMcpApi() {
  const registered = [];
  vscode.lm = {
    registerMcpServerDefinitionProvider: (id, provider) => {
      registered.push({ id, provider });
      return new vscode.Disposable(() => undefined);
    },
  };
  return registered;
}

test('registerMcpServer offers one server per folder, with the language server interpreter', async () => {
  const registered = withMcpApi();
  const logged = [];
  const changed = new vscode.EventEmitter();
  const context = stub.extensionContext(os.tmpdir());
  let launch = { command: '/venv/bin/python', args: ['-m', 'codekith.cli', 'serve'], source: 'setting:python' };
  vscode.workspace.workspaceFolders = [
    { uri: vscode.Uri.file('/ws/shop'), name: 'shop', index: 0 },
    { uri: vscode.Uri.file('/ws/docs'), name: 'docs', index: 1 },
  ];
  try {
    const source = { launch: async () => launch, onDidChangeLaunch: changed.event, version: '0.1.0', log: (m) => logged.push(m) };
    assert.equal(mcp.registerMcpServer(context, source), true);
    assert.equal(registered.length, 1);
    const { id, provider } = registered[0];
    assert.equal(id, mcp.MCP_PROVIDER_ID);
    const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    assert.deepEqual(manifest.contributes.mcpServerDefinitionProviders.map((p) => p.id), [id]);
    assert.ok(manifest.activationEvents.includes(`onMcpCollection:${id}`));

    const definitions = await provider.provideMcpServerDefinitions();
    assert.deepEqual(
      definitions.map((d) => [d.label, d.command, d.args, d.version]),
      [
        ['codekith: shop', '/venv/bin/python', ['-m', 'codekith.cli', 'mcp', '--root', '/ws/shop'], '0.1.0'],
        ['codekith: docs', '/venv/bin/python', ['-m', 'codekith.cli', 'mcp', '--root', '/ws/docs'], '0.1.0'],
      ],
    );
    assert.equal(provider.resolveMcpServerDefinition(definitions[0]), definitions[0]);

    let fired = 0;
    provider.onDidChangeMcpServerDefinitions(() => (fired += 1));
    launch = { command: '/other/bin/codekith', args: ['serve'], source: 'path' };
    changed.fire(launch);
    assert.equal(fired, 1);
    assert.deepEqual((await provider.provideMcpServerDefinitions())[0].args, ['mcp', '--root', '/ws/shop']);
    launch = undefined; // the language server could not be launched: nothing to offer
    assert.deepEqual(await provider.provideMcpServerDefinitions(), []);
  } finally {
    delete vscode.lm;
    vscode.workspace.workspaceFolders = undefined;
    context.subscriptions.forEach((d) => d.dispose());
  }
});

test('registerMcpServer does nothing on a VS Code without the MCP API', () => {
  assert.equal(vscode.lm, undefined);
  const logged = [];
  const context = stub.extensionContext(os.tmpdir());
  const source = { launch: async () => undefined, onDidChangeLaunch: new vscode.EventEmitter().event, version: '', log: (m) => logged.push(m) };
  assert.equal(mcp.registerMcpServer(context, source), false);
  assert.equal(context.subscriptions.length, 0);
  assert.match(logged.join('\n'), /no MCP server API/);
});
