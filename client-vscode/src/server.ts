/**
 * Starts, stops and restarts the `codekith serve` language client. Starts and restarts are
 * queued, so a burst of settings changes gives one clean restart at a time.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  type CloseHandlerResult,
  ErrorAction,
  type ErrorHandler,
  type ErrorHandlerResult,
  ExecuteCommandRequest,
  type FeatureState,
  LanguageClient,
  type LanguageClientOptions,
  type Message,
  ResponseError,
  type ServerOptions,
  State,
  type StaticFeature,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';
import { DOCUMENT_SELECTOR } from './languages';
import { describeLaunch, executableProblem, type Launch, LaunchError, resolveLaunch } from './launch';
import { INDEXED_NOTIFICATION, type IndexedParams, SERVER_COMMANDS, type Status } from './protocol';
import { activeInterpreter } from './python';
import { initializationOptions, serverSettings } from './settings';
import { IndexStatusBar, type ProgressValue } from './statusBar';

const CLIENT_ID = 'codekith';
const MAX_RESTARTS = 3;
const RESTART_WINDOW_MS = 3 * 60_000;

/** The client's user-facing errors during start are replaced by ours (with buttons). */
class CodekithLanguageClient extends LanguageClient {
  quiet = false;

  override error(message: string, data?: unknown, showNotification: boolean | 'force' = true): void {
    super.error(message, data, this.quiet ? false : showNotification);
  }
}

/** Feeds `$/progress` of server-created tokens to the status bar (replaces the default UI). */
class ProgressTracking implements StaticFeature {
  constructor(
    private readonly client: LanguageClient,
    private readonly sink: (token: string, value: ProgressValue) => void,
  ) {}

  fillClientCapabilities(capabilities: { window?: { workDoneProgress?: boolean } }): void {
    capabilities.window = { ...(capabilities.window ?? {}), workDoneProgress: true };
  }

  getState(): FeatureState {
    return { kind: 'static' };
  }

  initialize(): void {
    this.client.onRequest(WorkDoneProgressCreateRequest.type, ({ token }) => {
      const key = String(token);
      const subscription = this.client.onProgress(WorkDoneProgress.type, token, (value) => {
        this.sink(key, value as ProgressValue);
        if (value.kind === 'end') {
          subscription.dispose();
        }
      });
    });
  }

  clear(): void {}
}

export class ServerManager implements vscode.Disposable {
  client: CodekithLanguageClient | undefined;
  launch: Launch | undefined;
  /** How many times a client has been started (restarts included). */
  starts = 0;
  /** Runs the server announced (codekith/indexed), the last one's parameters. */
  indexedRuns = 0;
  lastIndexed: IndexedParams | undefined;
  private queue: Promise<void> = Promise.resolve();
  private pollTimer: NodeJS.Timeout | undefined;
  private disposed = false;
  private crashes: number[] = [];
  private readonly launchChanged = new vscode.EventEmitter<Launch | undefined>();
  /** Fires when a start resolves a different launch command (settings, interpreter). */
  readonly onDidChangeLaunch = this.launchChanged.event;

  constructor(
    readonly output: vscode.LogOutputChannel,
    readonly statusBar: IndexStatusBar,
  ) {}

  get running(): boolean {
    return this.client?.state === State.Running;
  }

  start(): Promise<void> {
    return this.enqueue(() => this.doStart());
  }

  restart(reason: string): Promise<void> {
    return this.enqueue(async () => {
      this.output.info(`Restarting the server: ${reason}`);
      await this.doStop();
      await this.doStart();
    });
  }

  stop(): Promise<void> {
    return this.enqueue(() => this.doStop());
  }

  /** Resolves when every queued start/stop has finished. */
  settled(): Promise<void> {
    return this.queue;
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(step, step);
    return this.queue;
  }

  private async doStart(): Promise<void> {
    if (this.disposed) {
      return;
    }
    this.statusBar.setState('starting');
    const folder = vscode.workspace.workspaceFolders?.[0];
    let launch: Launch;
    try {
      const settings = serverSettings(folder?.uri);
      launch = await resolveLaunch({
        command: settings.command,
        python: settings.python,
        pythonExtension: () => activeInterpreter(folder?.uri),
        log: (message) => this.output.info(message),
      });
    } catch (error) {
      return this.failed(error instanceof LaunchError ? error.message : String(error));
    }
    const previous = this.launch;
    this.launch = launch;
    if (!previous || describeLaunch(previous) !== describeLaunch(launch)) {
      this.launchChanged.fire(launch);
    }
    const line = describeLaunch(launch);
    const cwd = folder?.uri.fsPath;
    this.output.info(`Launch command (${launch.source}): ${line}${cwd ? `   [cwd: ${cwd}]` : ''}`);
    const problem = executableProblem(launch);
    if (problem) {
      return this.failed(`${problem} (launch command: ${line}).`);
    }

    const options = initializationOptions(folder?.uri);
    this.output.info(`initializationOptions: ${JSON.stringify(options)}`);
    const serverOptions: ServerOptions = {
      command: launch.command,
      args: launch.args,
      options: { cwd, env: { ...process.env } },
    };
    const clientOptions: LanguageClientOptions = {
      documentSelector: DOCUMENT_SELECTOR,
      outputChannel: this.output,
      initializationOptions: options,
      errorHandler: this.errorHandler(),
      // Our failed() explains with buttons; the client's own message would be a duplicate.
      initializationFailedHandler: (error) => {
        this.output.error(`initialize failed: ${errorText(error)}`);
        return false;
      },
      middleware: {
        // The server's lenses call codekith.related, whose raw bundle VS Code would drop:
        // route them to the Find Related Code picker instead.
        provideCodeLenses: async (document, token, next) => {
          const lenses = await next(document, token);
          for (const lens of lenses ?? []) {
            if (lens.command?.command === SERVER_COMMANDS.related) {
              lens.command = { ...lens.command, command: 'codekith.findRelated' };
            }
          }
          return lenses;
        },
      },
    };
    const client = new CodekithLanguageClient(CLIENT_ID, 'codekith', serverOptions, clientOptions);
    client.registerFeature(
      new ProgressTracking(client, (token, value) => {
        this.statusBar.onProgress(token, value);
        if (value.kind === 'end') {
          this.output.info(`${value.message ?? 'indexing finished'}`);
          this.schedulePoll(200);
        }
      }),
    );
    this.client = client;
    this.starts += 1;
    client.quiet = true;
    try {
      await client.start();
    } catch (error) {
      this.client = undefined;
      await client.dispose().catch(() => undefined);
      return this.failed(`${errorText(error)} (launch command: ${line}).`);
    } finally {
      client.quiet = false;
    }
    client.onNotification(INDEXED_NOTIFICATION, (params: IndexedParams) => {
      // A save's run reports no $/progress: without this the status bar waited for its
      // next poll (30 s when idle) to show the new chunk count or that HEAD is indexed.
      this.indexedRuns += 1;
      this.lastIndexed = params;
      this.schedulePoll(200);
    });
    client.onDidChangeState(({ newState }) => {
      if (this.client !== client) {
        return; // a client we are stopping on purpose
      }
      if (newState === State.Running) {
        this.statusBar.setState('running');
        this.schedulePoll(0);
      } else if (newState === State.Starting) {
        this.statusBar.setState('starting');
      }
    });
    const info = client.initializeResult?.serverInfo;
    this.output.info(`Server running: ${info?.name ?? 'codekith'} ${info?.version ?? ''}`.trim());
    this.statusBar.setState('running');
    this.schedulePoll(0);
  }

  private async doStop(): Promise<void> {
    this.stopPolling();
    const client = this.client;
    this.client = undefined;
    if (client) {
      try {
        if (client.state !== State.Stopped) {
          await client.stop(3000);
        }
      } catch (error) {
        this.output.warn(`Stopping the server: ${errorText(error)}`);
      }
      await client.dispose().catch(() => undefined);
    }
    this.statusBar.setState('stopped');
  }

  /** Marks the failure and shows it; does not wait for the user (the queue must go on). */
  private failed(message: string): void {
    this.statusBar.setState('failed', message);
    this.output.error(`The codekith server could not start: ${message}`);
    void this.explainFailure(message);
  }

  private async explainFailure(message: string): Promise<void> {
    const choice = await vscode.window.showErrorMessage(
      `codekith: the language server could not start. ${message}`,
      'Open Settings',
      'Show Log',
      'Retry',
    );
    if (choice === 'Open Settings') {
      await vscode.commands.executeCommand('workbench.action.openSettings', 'codekith.server');
    } else if (choice === 'Show Log') {
      this.output.show(true);
    } else if (choice === 'Retry') {
      void this.restart('retry requested');
    }
  }

  private errorHandler(): ErrorHandler {
    return {
      error: (_error: Error, _message: Message | undefined, count: number | undefined): ErrorHandlerResult => ({
        action: (count ?? 0) <= 3 ? ErrorAction.Continue : ErrorAction.Shutdown,
        handled: true,
      }),
      closed: (): CloseHandlerResult => {
        if (this.client?.quiet) {
          // Died while starting: client.start() rejects and failed() explains.
          return { action: CloseAction.DoNotRestart, handled: true };
        }
        const now = Date.now();
        this.crashes = [...this.crashes.filter((t) => now - t < RESTART_WINDOW_MS), now];
        if (this.crashes.length <= MAX_RESTARTS) {
          this.output.warn(`The server exited; restarting (${this.crashes.length}/${MAX_RESTARTS}).`);
          return { action: CloseAction.Restart, handled: true };
        }
        this.failed(`It exited ${this.crashes.length} times in 3 minutes; see the log.`);
        return { action: CloseAction.DoNotRestart, handled: true };
      },
    };
  }

  /** Runs a codekith.* server command; errors are thrown as `ServerCommandError`. */
  async execute<T>(command: string, args: object = {}): Promise<T> {
    const client = this.client;
    if (!client || client.state !== State.Running) {
      throw new ServerCommandError('the codekith server is not running', true);
    }
    try {
      return (await client.sendRequest(ExecuteCommandRequest.type, { command, arguments: [args] })) as T;
    } catch (error) {
      throw new ServerCommandError(errorText(error), false);
    }
  }

  /** Polls codekith.status: often while indexing, rarely otherwise (HEAD can move any time). */
  schedulePoll(delayMs: number): void {
    if (this.disposed || !this.client) {
      return;
    }
    this.stopPolling();
    this.pollTimer = setTimeout(() => void this.poll(), delayMs);
    this.pollTimer.unref?.();
  }

  async poll(): Promise<Status | undefined> {
    let status: Status | undefined;
    try {
      status = await this.execute<Status>(SERVER_COMMANDS.status);
      this.statusBar.setStatus(status);
    } catch {
      // not running (any more): the state change already shows it
    }
    if (this.running) {
      this.schedulePoll(this.statusBar.indexing ? 2_000 : 30_000);
    }
    return status;
  }

  private stopPolling(): void {
    if (this.pollTimer) {
      clearTimeout(this.pollTimer);
      this.pollTimer = undefined;
    }
  }

  dispose(): void {
    this.disposed = true;
    this.stopPolling();
    this.launchChanged.dispose();
  }
}

export class ServerCommandError extends Error {
  constructor(
    message: string,
    readonly notRunning: boolean,
  ) {
    super(message);
  }
}

export function errorText(error: unknown): string {
  if (error instanceof ResponseError) {
    return error.message;
  }
  return error instanceof Error ? error.message : String(error);
}

