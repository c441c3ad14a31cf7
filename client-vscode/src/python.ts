/**
 * The Python extension's active interpreter, through its public API (as in
 * microsoft/vscode-python-tools-extension-template), without a hard dependency: when the
 * extension is missing, inactive or older, every function here degrades to `undefined`.
 */
import * as vscode from 'vscode';

const PYTHON_EXTENSION = 'ms-python.python';

interface EnvironmentPath {
  id: string;
  path: string;
}

interface ResolvedEnvironment {
  executable: { uri?: vscode.Uri };
}

interface PythonApi {
  environments?: {
    getActiveEnvironmentPath(resource?: vscode.Uri): EnvironmentPath;
    resolveEnvironment(environment: EnvironmentPath | string): Promise<ResolvedEnvironment | undefined>;
    onDidChangeActiveEnvironmentPath?: vscode.Event<unknown>;
  };
  settings?: {
    getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
    onDidChangeExecutionDetails?: vscode.Event<unknown>;
  };
  ready?: Promise<void>;
}

async function pythonApi(): Promise<PythonApi | undefined> {
  const extension = vscode.extensions?.getExtension<PythonApi>(PYTHON_EXTENSION);
  if (!extension) {
    return undefined;
  }
  if (!extension.isActive) {
    await extension.activate();
  }
  const api = extension.exports;
  if (api?.ready) {
    await api.ready;
  }
  return api;
}

/** The interpreter the Python extension uses for `resource`, if any. */
export async function activeInterpreter(resource?: vscode.Uri): Promise<string | undefined> {
  const api = await pythonApi();
  if (!api) {
    return undefined;
  }
  if (api.environments?.getActiveEnvironmentPath) {
    const active = api.environments.getActiveEnvironmentPath(resource);
    const resolved = await api.environments.resolveEnvironment(active);
    const executable = resolved?.executable?.uri?.fsPath;
    if (executable) {
      return executable;
    }
    if (active?.path) {
      return active.path;
    }
  }
  const details = api.settings?.getExecutionDetails?.(resource);
  return details?.execCommand?.[0] || undefined;
}

/** Calls `listener` when the user picks another interpreter; a no-op without the extension. */
export async function onInterpreterChanged(listener: () => void): Promise<vscode.Disposable | undefined> {
  try {
    const api = await pythonApi();
    const event = api?.environments?.onDidChangeActiveEnvironmentPath ?? api?.settings?.onDidChangeExecutionDetails;
    return event ? event(() => listener()) : undefined;
  } catch {
    return undefined;
  }
}
