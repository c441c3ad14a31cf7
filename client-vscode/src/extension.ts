/**
 * codekith for VS Code: starts `codekith serve` and adds Find Related Code, Search Codebase,
 * Copy Related Context for AI, Reindex Workspace and Show Index Status; offers `codekith mcp`
 * to the agent mode where VS Code has the MCP API.
 */
import * as vscode from 'vscode';
import { Commands } from './commands';
import { registerMcpServer } from './mcp';
import { onInterpreterChanged } from './python';
import { ServerManager } from './server';
import { INDEX_SETTINGS, SECTION, SERVER_SWITCHES, serverSettings } from './settings';
import { IndexStatusBar } from './statusBar';

/** What `activate` returns: handles for scripting and tests. */
export interface CodekithApi {
  server: ServerManager;
  commands: Commands;
  statusBar: IndexStatusBar;
  output: vscode.LogOutputChannel;
  /** Resolves once the first start attempt has finished (started or failed). */
  ready: Promise<void>;
  /** Whether the MCP server was offered to VS Code (the API exists from 1.101). */
  mcpRegistered: boolean;
}

/** Settings whose change needs a new server (trace.server is applied live by the client). */
const RESTART_KEYS = ['server.command', 'server.python', ...INDEX_SETTINGS, ...SERVER_SWITCHES].map(
  (key) => `${SECTION}.${key}`,
);
const RESTART_DEBOUNCE_MS = 300;

let manager: ServerManager | undefined;

export function activate(context: vscode.ExtensionContext): CodekithApi {
  const output = vscode.window.createOutputChannel('codekith', { log: true });
  const statusBar = new IndexStatusBar();
  const server = new ServerManager(output, statusBar);
  manager = server;
  const commands = new Commands(server);
  context.subscriptions.push(output, statusBar, server);
  commands.register(context);

  let restartTimer: NodeJS.Timeout | undefined;
  const restartSoon = (reason: string) => {
    if (restartTimer) {
      clearTimeout(restartTimer);
    }
    restartTimer = setTimeout(() => void server.restart(reason), RESTART_DEBOUNCE_MS);
  };
  context.subscriptions.push(
    { dispose: () => restartTimer && clearTimeout(restartTimer) },
    vscode.workspace.onDidChangeConfiguration((event) => {
      const changed = RESTART_KEYS.filter((key) => event.affectsConfiguration(key));
      if (changed.length > 0) {
        restartSoon(`settings changed (${changed.join(', ')})`);
      }
    }),
    vscode.workspace.onDidSaveTextDocument(() => server.schedulePoll(1_000)),
  );
  void onInterpreterChanged(() => {
    const settings = serverSettings();
    const explicit = (Array.isArray(settings.command) ? settings.command.length > 0 : !!settings.command?.trim()) ||
      !!settings.python.trim();
    if (!explicit) {
      restartSoon('the Python interpreter changed');
    }
  }).then((disposable) => disposable && context.subscriptions.push(disposable));

  const ready = server.start();
  const mcpRegistered = registerMcpServer(context, {
    launch: async () => {
      await server.settled();
      return server.launch;
    },
    onDidChangeLaunch: server.onDidChangeLaunch,
    version: (context as { extension?: { packageJSON?: { version?: string } } }).extension?.packageJSON?.version ?? '',
    log: (message) => output.info(message),
  });
  return { server, commands, statusBar, output, ready, mcpRegistered };
}

export async function deactivate(): Promise<void> {
  const server = manager;
  manager = undefined;
  if (server) {
    await server.stop();
    server.dispose();
  }
}
