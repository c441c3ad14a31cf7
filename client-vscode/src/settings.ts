/**
 * `codekith.*` settings. Index settings mirror the server's `[tool.codekith]` keys and are
 * sent as LSP initializationOptions, but only the ones the user actually set (user,
 * workspace or folder scope): defaults stay the server's, so a workspace's pyproject.toml
 * is not overridden by VS Code's defaults.
 */
import * as vscode from 'vscode';

export const SECTION = 'codekith';

/** Settings forwarded to the server, under the same (camelCase) names the server accepts. */
export const INDEX_SETTINGS = [
  'include',
  'exclude',
  'maxFileBytes',
  'languages',
  'model',
  'db',
  'k',
  'depth',
  'budget',
  'secretPatterns',
  'jedi',
] as const;

/** Server switches (not index settings) also sent as initializationOptions. */
export const SERVER_SWITCHES = ['codeLens', 'debounceMs'] as const;

export interface ServerSettings {
  command: string | string[] | undefined;
  python: string;
}

export function serverSettings(scope?: vscode.ConfigurationScope): ServerSettings {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  return {
    command: config.get<string | string[]>('server.command'),
    python: config.get<string>('server.python') ?? '',
  };
}

/** The value the user set at any scope, or undefined when only the default applies. */
function explicit<T>(config: vscode.WorkspaceConfiguration, key: string): T | undefined {
  const inspected = config.inspect<T>(key);
  if (!inspected) {
    return undefined;
  }
  return inspected.workspaceFolderValue ?? inspected.workspaceValue ?? inspected.globalValue;
}

export function initializationOptions(scope?: vscode.ConfigurationScope): Record<string, unknown> {
  const config = vscode.workspace.getConfiguration(SECTION, scope);
  const options: Record<string, unknown> = {};
  for (const key of [...INDEX_SETTINGS, ...SERVER_SWITCHES]) {
    const value = explicit<unknown>(config, key);
    if (value !== undefined && value !== null) {
      options[key] = value;
    }
  }
  return options;
}

/** `depth` for codekith.related: only when the user set it (the server picks one by intent). */
export function relatedDepth(): number | undefined {
  const value = explicit<number | null>(vscode.workspace.getConfiguration(SECTION), 'depth');
  return typeof value === 'number' ? value : undefined;
}
