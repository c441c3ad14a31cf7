/**
 * Offers `codekith mcp` to VS Code's agent mode (Copilot) through
 * `vscode.lm.registerMcpServerDefinitionProvider` (VS Code 1.101+), one server per workspace
 * folder, started with the same interpreter or command as the language server. On an older
 * VS Code the API is missing and nothing is registered (the engines field stays ^1.91).
 */
import * as vscode from 'vscode';
import type { Launch } from './launch';

export const MCP_PROVIDER_ID = 'codekith.mcp';

/** The part of the MCP API this module uses (not in @types/vscode 1.91). */
interface McpApi {
  registerMcpServerDefinitionProvider(id: string, provider: McpProvider): vscode.Disposable;
}

interface McpProvider {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): Promise<unknown[]>;
  resolveMcpServerDefinition(server: unknown): unknown;
}

type McpStdioServerDefinitionClass = new (
  label: string,
  command: string,
  args?: string[],
  env?: Record<string, string | number | null>,
  version?: string,
) => unknown;

/** What starts the MCP server: the language server's launch with `serve` swapped for
 * `mcp --root FOLDER`; undefined when the launch does not end in `serve` (a custom command
 * codekith cannot adapt). */
export function mcpArgs(launch: Launch, folder: string): string[] | undefined {
  const args = [...launch.args];
  const serve = args.lastIndexOf('serve');
  if (serve < 0) {
    return undefined;
  }
  return [...args.slice(0, serve), 'mcp', '--root', folder];
}

/** The MCP API where this VS Code has it. */
function mcpApi(): { lm: McpApi; Definition: McpStdioServerDefinitionClass } | undefined {
  const lm = (vscode as unknown as { lm?: Partial<McpApi> }).lm;
  const Definition = (vscode as unknown as { McpStdioServerDefinition?: McpStdioServerDefinitionClass })
    .McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || typeof Definition !== 'function') {
    return undefined;
  }
  return { lm: lm as McpApi, Definition };
}

export interface McpSource {
  /** The language server's launch once its first start attempt has finished. */
  launch(): Promise<Launch | undefined>;
  /** Fires when the launch changes (a restart with other settings or interpreter). */
  onDidChangeLaunch: vscode.Event<Launch | undefined>;
  version: string;
  log(message: string): void;
}

/** Registers the provider when the API exists; returns whether it did. */
export function registerMcpServer(context: vscode.ExtensionContext, source: McpSource): boolean {
  const api = mcpApi();
  if (!api) {
    source.log('This VS Code has no MCP server API (1.101+); run `codekith mcp` from .vscode/mcp.json instead.');
    return false;
  }
  const changed = new vscode.EventEmitter<void>();
  const provider: McpProvider = {
    onDidChangeMcpServerDefinitions: changed.event,
    provideMcpServerDefinitions: async () => {
      const launch = await source.launch();
      if (!launch) {
        return [];
      }
      const definitions: unknown[] = [];
      for (const folder of vscode.workspace.workspaceFolders ?? []) {
        const args = mcpArgs(launch, folder.uri.fsPath);
        if (!args) {
          source.log(`No MCP server for ${folder.name}: the server command does not end in "serve".`);
          continue;
        }
        definitions.push(new api.Definition(`codekith: ${folder.name}`, launch.command, args, {}, source.version));
      }
      return definitions;
    },
    resolveMcpServerDefinition: (server) => server,
  };
  context.subscriptions.push(
    changed,
    api.lm.registerMcpServerDefinitionProvider(MCP_PROVIDER_ID, provider),
    source.onDidChangeLaunch(() => changed.fire()),
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
  );
  source.log(`Offered "codekith mcp" to VS Code's agent mode (provider ${MCP_PROVIDER_ID}).`);
  return true;
}
