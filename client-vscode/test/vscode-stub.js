'use strict';
/**
 * A small stand-in for the `vscode` module, enough for the compiled extension and the real
 * vscode-languageclient to run under `node --test`. Window interactions (messages, input
 * boxes, quick picks, the clipboard, opened editors) are recorded in `stub` so tests can
 * look at them and answer them. Unknown capitalised names are real (empty) classes, because
 * the client `extends`/`instanceof`s some of them; unknown lowercase names are undefined.
 */
const fs = require('node:fs');
const path = require('node:path');
const { minimatch } = require('minimatch');

// -- basics ---------------------------------------------------------------------------------

class Disposable {
  static from(...items) {
    return new Disposable(() => items.forEach((d) => d && d.dispose && d.dispose()));
  }
  constructor(callOnDispose) {
    this._callOnDispose = callOnDispose;
  }
  dispose() {
    if (this._callOnDispose) {
      const call = this._callOnDispose;
      this._callOnDispose = undefined;
      call();
    }
  }
}

class EventEmitter {
  constructor() {
    this._listeners = new Set();
    this.event = (listener, thisArgs, disposables) => {
      const entry = (e) => listener.call(thisArgs, e);
      this._listeners.add(entry);
      const disposable = new Disposable(() => this._listeners.delete(entry));
      if (Array.isArray(disposables)) {
        disposables.push(disposable);
      }
      return disposable;
    };
  }
  fire(value) {
    for (const listener of [...this._listeners]) {
      listener(value);
    }
  }
  get listenerCount() {
    return this._listeners.size;
  }
  dispose() {
    this._listeners.clear();
  }
}

class CancellationError extends Error {
  constructor() {
    super('Canceled');
    this.name = 'Canceled';
  }
}

class CancellationTokenSource {
  constructor() {
    const emitter = new EventEmitter();
    this._emitter = emitter;
    this.token = {
      isCancellationRequested: false,
      onCancellationRequested: emitter.event,
    };
  }
  cancel() {
    if (!this.token.isCancellationRequested) {
      this.token.isCancellationRequested = true;
      this._emitter.fire(undefined);
    }
  }
  dispose() {
    this._emitter.dispose();
  }
}

class Uri {
  constructor(scheme, authority, p, query, fragment) {
    this.scheme = scheme;
    this.authority = authority || '';
    this.path = p || '/';
    this.query = query || '';
    this.fragment = fragment || '';
  }
  static file(fsPath) {
    return new Uri('file', '', path.resolve(fsPath).split(path.sep).join('/'));
  }
  static parse(value) {
    const match = /^([a-zA-Z][\w+.-]*):(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/.exec(value);
    if (!match) {
      throw new Error(`stub Uri.parse: cannot parse ${value}`);
    }
    return new Uri(match[1], match[2], decodeURIComponent(match[3]), match[4], match[5]);
  }
  static joinPath(base, ...parts) {
    return base.with({ path: path.posix.join(base.path, ...parts) });
  }
  get fsPath() {
    return this.path;
  }
  with(change) {
    return new Uri(
      change.scheme ?? this.scheme,
      change.authority ?? this.authority,
      change.path ?? this.path,
      change.query ?? this.query,
      change.fragment ?? this.fragment,
    );
  }
  toString() {
    const encoded = this.path
      .split('/')
      .map((segment) => encodeURIComponent(segment))
      .join('/');
    return (
      `${this.scheme}://${this.authority}${encoded}` +
      (this.query ? `?${this.query}` : '') +
      (this.fragment ? `#${this.fragment}` : '')
    );
  }
  toJSON() {
    return { scheme: this.scheme, authority: this.authority, path: this.path, query: this.query, fragment: this.fragment };
  }
}

class Position {
  constructor(line, character) {
    this.line = line;
    this.character = character;
  }
  isEqual(other) {
    return this.line === other.line && this.character === other.character;
  }
  isBefore(other) {
    return this.line < other.line || (this.line === other.line && this.character < other.character);
  }
  isAfter(other) {
    return !this.isEqual(other) && !this.isBefore(other);
  }
  compareTo(other) {
    return this.isBefore(other) ? -1 : this.isEqual(other) ? 0 : 1;
  }
  translate(lineDelta = 0, characterDelta = 0) {
    return new Position(this.line + lineDelta, this.character + characterDelta);
  }
  with(line = this.line, character = this.character) {
    return new Position(line, character);
  }
}

class Range {
  constructor(a, b, c, d) {
    if (typeof a === 'number') {
      this.start = new Position(a, b);
      this.end = new Position(c, d);
    } else {
      this.start = a;
      this.end = b;
    }
  }
  get isEmpty() {
    return this.start.isEqual(this.end);
  }
  get isSingleLine() {
    return this.start.line === this.end.line;
  }
  contains(position) {
    const p = position.start ?? position;
    return !p.isBefore(this.start) && !this.end.isBefore(p);
  }
}

class Selection extends Range {
  constructor(anchor, active, c, d) {
    if (typeof anchor === 'number') {
      anchor = new Position(anchor, active);
      active = new Position(c, d);
    }
    const forward = !active.isBefore(anchor);
    super(forward ? anchor : active, forward ? active : anchor);
    this.anchor = anchor;
    this.active = active;
  }
}

class Location {
  constructor(uri, rangeOrPosition) {
    this.uri = uri;
    this.range = rangeOrPosition;
  }
}

class ThemeColor {
  constructor(id) {
    this.id = id;
  }
}

class ThemeIcon {
  constructor(id, color) {
    this.id = id;
    this.color = color;
  }
}

class MarkdownString {
  constructor(value = '') {
    this.value = value;
  }
  appendText(text) {
    this.value += text;
    return this;
  }
  appendMarkdown(text) {
    this.value += text;
    return this;
  }
  appendCodeblock(code, language = '') {
    this.value += `\n\`\`\`${language}\n${code}\n\`\`\`\n`;
    return this;
  }
}

class CodeLens {
  constructor(range, command) {
    this.range = range;
    this.command = command;
  }
  get isResolved() {
    return !!this.command;
  }
}

const enums = {
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  DiagnosticSeverity: { Error: 0, Warning: 1, Information: 2, Hint: 3 },
  ConfigurationTarget: { Global: 1, Workspace: 2, WorkspaceFolder: 3 },
  TextDocumentSaveReason: { Manual: 1, AfterDelay: 2, FocusOut: 3 },
  LogLevel: { Off: 0, Trace: 1, Debug: 2, Info: 3, Warning: 4, Error: 5 },
  NotebookCellKind: { Markup: 1, Code: 2 },
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2, Three: 3 },
  QuickPickItemKind: { Separator: -1, Default: 0 },
  EndOfLine: { LF: 1, CRLF: 2 },
  UIKind: { Desktop: 1, Web: 2 },
  SymbolKind: { File: 0, Module: 1, Namespace: 2, Class: 4, Method: 5, Function: 11, String: 14, Variable: 12 },
  ExtensionMode: { Production: 1, Development: 2, Test: 3 },
};

// -- recorded state -------------------------------------------------------------------------

const stub = {
  /** Every message shown: {level, message, items}. */
  messages: [],
  /** Answers for the next showXMessage calls, by level ('info'|'warning'|'error'): a function of the message. */
  answers: { info: () => undefined, warning: () => undefined, error: () => undefined },
  /** Answers for showInputBox: a function of the options. */
  inputBox: () => undefined,
  inputBoxes: [],
  /** Quick picks shown (newest last), and a hook called when one is shown. */
  quickPicks: [],
  onQuickPick: new EventEmitter(),
  clipboard: '',
  /** showTextDocument calls: {uri, options}. */
  shownDocuments: [],
  outputChannels: [],
  statusBarItems: [],
  executedCommands: [],
  progress: [],
  configuration: {},
  extensions: {},
  registeredProviders: [],
};

// -- documents ------------------------------------------------------------------------------

const LANGUAGES = { '.py': 'python', '.md': 'markdown', '.rst': 'restructuredtext', '.toml': 'toml', '.yaml': 'yaml' };

function createTextDocument(uri, text, languageId) {
  let lines = text.split('\n');
  const document = {
    uri,
    fileName: uri.fsPath,
    languageId: languageId ?? LANGUAGES[path.extname(uri.fsPath)] ?? 'plaintext',
    version: 1,
    isDirty: false,
    isClosed: false,
    isUntitled: false,
    eol: enums.EndOfLine.LF,
    get lineCount() {
      return lines.length;
    },
    getText(range) {
      if (!range) {
        return text;
      }
      return text.slice(document.offsetAt(range.start), document.offsetAt(range.end));
    },
    offsetAt(position) {
      let offset = 0;
      for (let i = 0; i < position.line && i < lines.length; i++) {
        offset += lines[i].length + 1;
      }
      return offset + position.character;
    },
    positionAt(offset) {
      let line = 0;
      while (line < lines.length - 1 && offset > lines[line].length) {
        offset -= lines[line].length + 1;
        line++;
      }
      return new Position(line, offset);
    },
    lineAt(lineOrPosition) {
      const line = typeof lineOrPosition === 'number' ? lineOrPosition : lineOrPosition.line;
      return { lineNumber: line, text: lines[line], range: new Range(line, 0, line, lines[line].length) };
    },
    /** Test helper: replace the content (as after an edit). */
    setText(value) {
      text = value;
      lines = text.split('\n');
      document.version += 1;
    },
    save: async () => true,
  };
  return document;
}

// -- configuration --------------------------------------------------------------------------

function defaults() {
  const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
  const result = {};
  for (const [key, spec] of Object.entries(manifest.contributes.configuration.properties)) {
    result[key] = spec.default;
  }
  return result;
}
const DEFAULTS = defaults();

function getConfiguration(section) {
  const prefix = section ? `${section}.` : '';
  const full = (key) => prefix + key;
  return {
    get(key, fallback) {
      const name = full(key);
      if (name in stub.configuration) {
        return stub.configuration[name];
      }
      if (name in DEFAULTS) {
        return DEFAULTS[name];
      }
      // sections: collect children
      const children = Object.keys({ ...DEFAULTS, ...stub.configuration }).filter((k) => k.startsWith(name + '.'));
      if (children.length > 0) {
        const value = {};
        for (const child of children) {
          value[child.slice(name.length + 1)] = child in stub.configuration ? stub.configuration[child] : DEFAULTS[child];
        }
        return value;
      }
      return fallback;
    },
    has(key) {
      return full(key) in stub.configuration || full(key) in DEFAULTS;
    },
    inspect(key) {
      const name = full(key);
      return {
        key: name,
        defaultValue: DEFAULTS[name],
        globalValue: undefined,
        workspaceValue: stub.configuration[name],
        workspaceFolderValue: undefined,
      };
    },
    async update(key, value) {
      setConfiguration({ [full(key)]: value });
    },
  };
}

const onDidChangeConfiguration = new EventEmitter();

/** Test helper: change settings and fire onDidChangeConfiguration for them. */
function setConfiguration(values) {
  const keys = Object.keys(values);
  for (const key of keys) {
    if (values[key] === undefined) {
      delete stub.configuration[key];
    } else {
      stub.configuration[key] = values[key];
    }
  }
  onDidChangeConfiguration.fire({
    affectsConfiguration: (section) => keys.some((key) => key === section || key.startsWith(section + '.')),
  });
}

// -- window ---------------------------------------------------------------------------------

function createOutputChannel(name, options) {
  const channel = {
    name,
    lines: [],
    shown: 0,
    logLevel: enums.LogLevel.Info,
    onDidChangeLogLevel: new EventEmitter().event,
    append(value) {
      channel.lines.push(value);
    },
    appendLine(value) {
      channel.lines.push(value);
    },
    replace(value) {
      channel.lines = [value];
    },
    clear() {
      channel.lines = [];
    },
    show() {
      channel.shown += 1;
    },
    hide() {},
    dispose() {},
  };
  for (const level of ['trace', 'debug', 'info', 'warn', 'error']) {
    channel[level] = (message, ...args) => {
      const text = message instanceof Error ? message.stack ?? message.message : String(message);
      channel.lines.push(`[${level}] ${text}${args.length ? ' ' + args.map(String).join(' ') : ''}`);
    };
  }
  channel.log = !!(options && options.log);
  stub.outputChannels.push(channel);
  return channel;
}

function createStatusBarItem(idOrAlignment, alignmentOrPriority, maybePriority) {
  const item = {
    id: typeof idOrAlignment === 'string' ? idOrAlignment : undefined,
    alignment: typeof idOrAlignment === 'string' ? alignmentOrPriority : idOrAlignment,
    priority: typeof idOrAlignment === 'string' ? maybePriority : alignmentOrPriority,
    text: '',
    tooltip: undefined,
    command: undefined,
    backgroundColor: undefined,
    name: undefined,
    visible: false,
    history: [],
    show() {
      item.visible = true;
    },
    hide() {
      item.visible = false;
    },
    dispose() {
      item.visible = false;
    },
  };
  // record every distinct text shown
  let text = '';
  Object.defineProperty(item, 'text', {
    get: () => text,
    set: (value) => {
      text = value;
      if (item.history[item.history.length - 1] !== value) {
        item.history.push(value);
      }
    },
  });
  stub.statusBarItems.push(item);
  return item;
}

function message(level) {
  return async (text, ...rest) => {
    const items = rest.filter((item) => typeof item === 'string' || (item && item.title));
    stub.messages.push({ level, message: text, items: items.map((i) => (typeof i === 'string' ? i : i.title)) });
    return stub.answers[level](text, items);
  };
}

function createQuickPick() {
  const onDidChangeActive = new EventEmitter();
  const onDidChangeSelection = new EventEmitter();
  const onDidAccept = new EventEmitter();
  const onDidHide = new EventEmitter();
  const onDidTriggerButton = new EventEmitter();
  const onDidChangeValue = new EventEmitter();
  const pick = {
    items: [],
    activeItems: [],
    selectedItems: [],
    buttons: [],
    title: undefined,
    placeholder: undefined,
    value: '',
    visible: false,
    busy: false,
    onDidChangeActive: onDidChangeActive.event,
    onDidChangeSelection: onDidChangeSelection.event,
    onDidAccept: onDidAccept.event,
    onDidHide: onDidHide.event,
    onDidTriggerButton: onDidTriggerButton.event,
    onDidChangeValue: onDidChangeValue.event,
    show() {
      pick.visible = true;
      stub.quickPicks.push(pick);
      stub.onQuickPick.fire(pick);
    },
    hide() {
      if (pick.visible) {
        pick.visible = false;
        onDidHide.fire();
      }
    },
    dispose() {
      pick.visible = false;
    },
    // test helpers: what a user does
    setActive(item) {
      pick.activeItems = [item];
      onDidChangeActive.fire(pick.activeItems);
    },
    accept(item) {
      pick.activeItems = [item];
      pick.selectedItems = [item];
      onDidChangeSelection.fire(pick.selectedItems);
      onDidAccept.fire();
    },
    triggerButton(button) {
      onDidTriggerButton.fire(button);
    },
  };
  return pick;
}

const onDidChangeActiveTextEditor = new EventEmitter();

const window = {
  activeTextEditor: undefined,
  visibleTextEditors: [],
  onDidChangeActiveTextEditor: onDidChangeActiveTextEditor.event,
  onDidChangeVisibleTextEditors: new EventEmitter().event,
  onDidChangeTextEditorSelection: new EventEmitter().event,
  onDidChangeWindowState: new EventEmitter().event,
  state: { focused: true },
  tabGroups: { all: [], onDidChangeTabs: new EventEmitter().event, onDidChangeTabGroups: new EventEmitter().event },
  createOutputChannel,
  createStatusBarItem,
  showInformationMessage: message('info'),
  showWarningMessage: message('warning'),
  showErrorMessage: message('error'),
  async showInputBox(options) {
    stub.inputBoxes.push(options);
    return stub.inputBox(options);
  },
  createQuickPick,
  async showQuickPick(items) {
    const pick = createQuickPick();
    pick.items = await items;
    return new Promise((resolve) => {
      pick.onDidAccept(() => resolve(pick.selectedItems[0]));
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
  },
  async withProgress(options, task) {
    const record = { options, reports: [] };
    stub.progress.push(record);
    const source = new CancellationTokenSource();
    return task({ report: (value) => record.reports.push(value) }, source.token);
  },
  async showTextDocument(documentOrUri, options) {
    const document = documentOrUri && documentOrUri.getText ? documentOrUri : await workspace.openTextDocument(documentOrUri);
    stub.shownDocuments.push({ uri: document.uri.toString(), options: options || {} });
    const selection = options && options.selection;
    const editor = {
      document,
      selection: selection ? new Selection(selection.start, selection.end) : new Selection(0, 0, 0, 0),
      viewColumn: enums.ViewColumn.One,
      revealRange() {},
    };
    window.activeTextEditor = editor;
    onDidChangeActiveTextEditor.fire(editor);
    return editor;
  },
  registerUriHandler: () => new Disposable(() => {}),
  createTextEditorDecorationType: () => ({ dispose() {} }),
};

// -- workspace ------------------------------------------------------------------------------

const onDidSaveTextDocument = new EventEmitter();
const onDidOpenTextDocument = new EventEmitter();
const onDidCloseTextDocument = new EventEmitter();
const onDidChangeTextDocument = new EventEmitter();

const fileWatchers = new Set();

function createFileSystemWatcher(pattern, ignoreCreate = false, ignoreChange = false, ignoreDelete = false) {
  const emitters = { create: new EventEmitter(), change: new EventEmitter(), delete: new EventEmitter() };
  const watcher = {
    pattern,
    ignored: { create: ignoreCreate, change: ignoreChange, delete: ignoreDelete },
    emitters,
    onDidCreate: emitters.create.event,
    onDidChange: emitters.change.event,
    onDidDelete: emitters.delete.event,
    dispose() {
      fileWatchers.delete(watcher);
    },
  };
  fileWatchers.add(watcher);
  return watcher;
}

/** Whether VS Code's watcher would report `fsPath` to a watcher of `pattern`: a glob string
 * matches the whole path, a RelativePattern the path below its base (dotfiles included). */
function globMatches(pattern, fsPath) {
  if (typeof pattern === 'string') {
    return minimatch(fsPath, pattern, { dot: true });
  }
  const base = pattern.baseUri ? pattern.baseUri.fsPath : pattern.base;
  const relative = path.relative(base, fsPath);
  return !relative.startsWith('..') && minimatch(relative, pattern.pattern, { dot: true });
}

/** A file created, changed or deleted on disk outside the editor (`kind`: create, change or
 * delete): every watcher whose pattern matches it hears of it, as VS Code's would. */
function fileChanged(fsPath, kind) {
  let heard = 0;
  for (const watcher of fileWatchers) {
    if (!watcher.ignored[kind] && globMatches(watcher.pattern, fsPath)) {
      watcher.emitters[kind].fire(Uri.file(fsPath));
      heard += 1;
    }
  }
  return heard;
}

const workspace = {
  workspaceFolders: undefined,
  name: undefined,
  workspaceFile: undefined,
  textDocuments: [],
  notebookDocuments: [],
  isTrusted: true,
  getConfiguration,
  onDidChangeConfiguration: onDidChangeConfiguration.event,
  onDidSaveTextDocument: onDidSaveTextDocument.event,
  onWillSaveTextDocument: new EventEmitter().event,
  onDidOpenTextDocument: onDidOpenTextDocument.event,
  onDidCloseTextDocument: onDidCloseTextDocument.event,
  onDidChangeTextDocument: onDidChangeTextDocument.event,
  onDidChangeWorkspaceFolders: new EventEmitter().event,
  onDidOpenNotebookDocument: new EventEmitter().event,
  onDidCloseNotebookDocument: new EventEmitter().event,
  onDidChangeNotebookDocument: new EventEmitter().event,
  onDidSaveNotebookDocument: new EventEmitter().event,
  onDidCreateFiles: new EventEmitter().event,
  onDidRenameFiles: new EventEmitter().event,
  onDidDeleteFiles: new EventEmitter().event,
  onWillCreateFiles: new EventEmitter().event,
  onWillRenameFiles: new EventEmitter().event,
  onWillDeleteFiles: new EventEmitter().event,
  onDidGrantWorkspaceTrust: new EventEmitter().event,
  createFileSystemWatcher,
  getWorkspaceFolder(uri) {
    return (workspace.workspaceFolders || []).find((folder) => uri.fsPath.startsWith(folder.uri.fsPath));
  },
  async openTextDocument(uriOrPath) {
    const uri = typeof uriOrPath === 'string' ? Uri.file(uriOrPath) : uriOrPath;
    const open = workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) {
      return open;
    }
    const document = createTextDocument(uri, fs.readFileSync(uri.fsPath, 'utf8'));
    workspace.textDocuments.push(document);
    onDidOpenTextDocument.fire(document);
    return document;
  },
  registerTextDocumentContentProvider: () => new Disposable(() => {}),
  asRelativePath(value) {
    const p = typeof value === 'string' ? value : value.fsPath;
    const folder = (workspace.workspaceFolders || [])[0];
    return folder && p.startsWith(folder.uri.fsPath + '/') ? p.slice(folder.uri.fsPath.length + 1) : p;
  },
};

// -- languages, commands, env, extensions ---------------------------------------------------

function matchFilter(filter, document) {
  if (typeof filter === 'string') {
    return filter === '*' || filter === document.languageId ? 10 : 0;
  }
  if (filter.notebookType) {
    return 0;
  }
  if (filter.language && filter.language !== '*' && filter.language !== document.languageId) {
    return 0;
  }
  if (filter.scheme && filter.scheme !== '*' && filter.scheme !== document.uri.scheme) {
    return 0;
  }
  if (filter.pattern) {
    const pattern = typeof filter.pattern === 'string' ? filter.pattern : path.posix.join(filter.pattern.baseUri?.path ?? filter.pattern.base, filter.pattern.pattern);
    if (!minimatch(document.uri.fsPath, pattern, { dot: true, matchBase: !pattern.includes('/') })) {
      return 0;
    }
  }
  return 10;
}

const languages = {
  match(selector, document) {
    const filters = Array.isArray(selector) ? selector : [selector];
    return Math.max(0, ...filters.map((f) => matchFilter(f, document)));
  },
  createDiagnosticCollection(name) {
    const entries = new Map();
    return {
      name,
      set: (uri, diagnostics) => entries.set(String(uri), diagnostics),
      delete: (uri) => entries.delete(String(uri)),
      clear: () => entries.clear(),
      get: (uri) => entries.get(String(uri)),
      forEach: (fn) => entries.forEach((v, k) => fn(Uri.parse(k), v)),
      dispose: () => entries.clear(),
    };
  },
  getLanguages: async () => Object.values(LANGUAGES),
  setTextDocumentLanguage: async (document) => document,
};
// every languages.registerXProvider records the provider and returns a Disposable
const languagesProxy = new Proxy(languages, {
  get(target, name) {
    if (name in target) {
      return target[name];
    }
    if (typeof name === 'string' && name.startsWith('register')) {
      return (selector, provider) => {
        const entry = { kind: name, selector, provider };
        stub.registeredProviders.push(entry);
        return new Disposable(() => stub.registeredProviders.splice(stub.registeredProviders.indexOf(entry), 1));
      };
    }
    return undefined;
  },
});

const registeredCommands = new Map();
const commands = {
  registerCommand(id, callback, thisArg) {
    if (registeredCommands.has(id)) {
      throw new Error(`command '${id}' already exists`);
    }
    registeredCommands.set(id, callback.bind(thisArg));
    return new Disposable(() => registeredCommands.delete(id));
  },
  registerTextEditorCommand(id, callback) {
    return commands.registerCommand(id, (...args) => callback(window.activeTextEditor, undefined, ...args));
  },
  async executeCommand(id, ...args) {
    stub.executedCommands.push({ id, args });
    const command = registeredCommands.get(id);
    if (!command) {
      return undefined; // built-in workbench commands: recorded only
    }
    return command(...args);
  },
  async getCommands() {
    return [...registeredCommands.keys()];
  },
};

const env = {
  appName: 'Visual Studio Code (stub)',
  appRoot: __dirname,
  language: 'en',
  machineId: 'stub-machine',
  sessionId: 'stub-session',
  uriScheme: 'vscode',
  uiKind: enums.UIKind.Desktop,
  shell: '/bin/sh',
  clipboard: {
    readText: async () => stub.clipboard,
    writeText: async (value) => {
      stub.clipboard = value;
    },
  },
  openExternal: async () => true,
  asExternalUri: async (uri) => uri,
};

const extensions = {
  getExtension: (id) => stub.extensions[id],
  get all() {
    return Object.values(stub.extensions);
  },
  onDidChange: new EventEmitter().event,
};

/** VS Code 1.101's stdio MCP server definition (the `lm` API itself is left to each test:
 * without it the stub is a VS Code from before MCP). */
class McpStdioServerDefinition {
  constructor(label, command, args = [], env = {}, version = undefined) {
    Object.assign(this, { label, command, args, env, version });
  }
}

// -- test helpers ---------------------------------------------------------------------------

/** Open a file in an editor with the cursor (or a selection) and make it active. */
async function openEditor(fsPath, selection) {
  const document = await workspace.openTextDocument(Uri.file(fsPath));
  const editor = {
    document,
    selection: selection ?? new Selection(0, 0, 0, 0),
    viewColumn: enums.ViewColumn.One,
    revealRange() {},
  };
  window.activeTextEditor = editor;
  window.visibleTextEditors = [editor];
  onDidChangeActiveTextEditor.fire(editor);
  return editor;
}

/** Write `text` to the file on disk, update its open document, and fire onDidSaveTextDocument. */
async function saveFile(fsPath, text) {
  fs.writeFileSync(fsPath, text);
  const document = await workspace.openTextDocument(Uri.file(fsPath));
  document.setText(text);
  onDidSaveTextDocument.fire(document);
  return document;
}

function extensionContext(storage) {
  return {
    subscriptions: [],
    extensionPath: path.join(__dirname, '..'),
    extensionUri: Uri.file(path.join(__dirname, '..')),
    storagePath: storage,
    globalStoragePath: storage,
    logPath: storage,
    storageUri: Uri.file(storage),
    globalStorageUri: Uri.file(storage),
    logUri: Uri.file(storage),
    extensionMode: enums.ExtensionMode.Test,
    asAbsolutePath: (relative) => path.join(__dirname, '..', relative),
    workspaceState: new Map(),
    globalState: new Map(),
    environmentVariableCollection: { replace() {}, append() {}, prepend() {}, get() {}, forEach() {}, delete() {}, clear() {} },
  };
}

Object.assign(stub, {
  registeredCommands,
  setConfiguration,
  openEditor,
  saveFile,
  fileChanged,
  createTextDocument,
  extensionContext,
  events: { onDidSaveTextDocument, onDidOpenTextDocument, onDidCloseTextDocument, onDidChangeTextDocument, onDidChangeConfiguration },
});

// -- the module -----------------------------------------------------------------------------

const known = {
  // TypeScript's __importStar copies own properties unless the module says it is an ES
  // module: this keeps `import * as vscode` pointing at the proxy (and its generated classes).
  __esModule: true,
  version: '1.95.0',
  Disposable,
  EventEmitter,
  CancellationError,
  CancellationTokenSource,
  Uri,
  Position,
  Range,
  Selection,
  Location,
  ThemeColor,
  ThemeIcon,
  MarkdownString,
  CodeLens,
  McpStdioServerDefinition,
  ...enums,
  window,
  workspace,
  languages: languagesProxy,
  commands,
  env,
  extensions,
  __stub: stub,
};

const generated = new Map();
module.exports = new Proxy(known, {
  get(target, name) {
    if (name in target) {
      return target[name];
    }
    if (typeof name === 'string' && /^[A-Z]/.test(name)) {
      if (!generated.has(name)) {
        // A real class with the right name, so `extends` and `instanceof` work.
        const cls = {
          [name]: class {
            constructor(...args) {
              this.args = args;
            }
          },
        }[name];
        generated.set(name, cls);
      }
      return generated.get(name);
    }
    return undefined;
  },
});
