/**
 * The user-facing commands. Each returns what it showed (bundle, hits, markdown, status),
 * so they can also be scripted (`vscode.commands.executeCommand`) and tested.
 */
import * as vscode from 'vscode';
import {
  type Bundle,
  type BundleItem,
  type Hit,
  type ReindexResult,
  type RelatedArgs,
  SERVER_COMMANDS,
  type SearchArgs,
  type SearchResult,
  type Status,
} from './protocol';
import { ServerCommandError, type ServerManager } from './server';
import { relatedDepth } from './settings';

const KIND_ICONS: Record<string, string> = {
  function: 'symbol-function',
  method: 'symbol-method',
  class: 'symbol-class',
  module: 'symbol-module',
  section: 'symbol-string',
};
const MAX_QUERY_CHARS = 4000;

/** A hit to pick, or (no `hit`) the separator before the documentation. */
export interface HitPickItem extends vscode.QuickPickItem {
  hit?: Hit;
}

/** What the user asked to relate: an explicit argument, the selection, or the cursor. */
export interface RelatedTargetArg {
  query?: string;
  symbol?: string;
  uri?: string;
  position?: { line: number; character: number };
}

type SearchScope = 'all' | 'tests' | 'code';

const SEARCH_TITLES: Record<SearchScope, string> = {
  all: 'codekith: Search Codebase',
  tests: 'codekith: Search Tests and Code',
  code: 'codekith: Search Code Only',
};

// Documentation sections listed apart, after the code hits (the server's `docs`): ranked
// together, sections that share a question's prose take the code's first places.
const DOCS_APART = 5;
// Tests listed apart, after the code hits (the server's `testsApart`): ranked together, a
// test gives up a share of its score, which costs the questions a test answers.
const TESTS_APART = 5;

const SEARCH_SCOPES: Record<SearchScope, Partial<SearchArgs>> = {
  all: { docs: DOCS_APART, testsApart: TESTS_APART },
  tests: { tests: true, docs: DOCS_APART },
  code: { kind: 'code' },
};

export class Commands {
  constructor(private readonly server: ServerManager) {}

  register(context: vscode.ExtensionContext): void {
    const register = (id: string, run: (...args: any[]) => unknown) =>
      context.subscriptions.push(vscode.commands.registerCommand(id, run));
    register('codekith.findRelated', (arg?: RelatedTargetArg) => this.findRelated(arg));
    register('codekith.findRelatedTests', (arg?: RelatedTargetArg) => this.findRelated(arg, true));
    register('codekith.searchCodebase', (arg?: { query?: string }) => this.searchCodebase(arg));
    register('codekith.searchTests', (arg?: { query?: string }) => this.searchCodebase(arg, 'tests'));
    register('codekith.searchCode', (arg?: { query?: string }) => this.searchCodebase(arg, 'code'));
    register('codekith.copyRelatedContext', (arg?: RelatedTargetArg) => this.copyRelatedContext(arg));
    register('codekith.reindexWorkspace', (arg?: { full?: boolean }) => this.reindex(arg?.full === true));
    register('codekith.rebuildIndex', () => this.reindex(true));
    register('codekith.showStatus', () => this.showStatus());
    register('codekith.restart', () => this.server.restart('restart requested'));
    register('codekith.showLog', () => this.server.output.show(true));
  }

  // -- Find Related Code / Copy Related Context -------------------------------------------

  /** With `tests`, tests rank with the project's own code (by default they rank below it). */
  async findRelated(arg?: RelatedTargetArg, tests = false): Promise<BundleItem | undefined> {
    const bundle = await this.related(arg, tests);
    if (!bundle) {
      return undefined;
    }
    if (bundle.items.length === 0) {
      void vscode.window.showInformationMessage(`codekith: nothing related to ${bundle.target} was found.`);
      return undefined;
    }
    const items = bundle.items.map((item) => ({
      ...hitItem(item),
      description: item.reason,
      detail: `${location(item)} · score ${item.score.toFixed(3)}${flags(item)}`,
    }));
    const copy: vscode.QuickInputButton = {
      iconPath: new vscode.ThemeIcon('copy'),
      tooltip: 'Copy Related Context for AI',
    };
    const picked = await pickHit(
      items,
      `${tests ? 'Related tests and code' : 'Related'} to ${bundle.target} (${bundle.intent}, ~${bundle.tokens} tokens${bundle.fresh === false ? ', index behind HEAD' : ''})`,
      'Pick to open; moving through the list previews each location',
      [copy],
      async () => this.copyMarkdown(bundle),
    );
    return picked ? bundle.items.find((item) => item.id === picked.id) : undefined;
  }

  async copyRelatedContext(arg?: RelatedTargetArg): Promise<string | undefined> {
    const bundle = await this.related(arg);
    return bundle ? this.copyMarkdown(bundle) : undefined;
  }

  private async copyMarkdown(bundle: Bundle): Promise<string> {
    const markdown = bundle.markdown ?? '';
    await vscode.env.clipboard.writeText(markdown);
    void vscode.window.showInformationMessage(
      `codekith: copied ${bundle.items.length} related items (~${bundle.tokens} tokens) for ${bundle.target}.`,
    );
    return markdown;
  }

  private async related(arg?: RelatedTargetArg, tests = false): Promise<Bundle | undefined> {
    const target = await relatedTarget(arg);
    if (!target) {
      return undefined;
    }
    const depth = relatedDepth();
    // The markdown comes along so that copying it needs no second request.
    const args: RelatedArgs = {
      ...target,
      format: 'markdown',
      ...(depth === undefined ? {} : { depth }),
      ...(tests ? { tests } : {}),
    };
    return this.run<Bundle>(SERVER_COMMANDS.related, args, 'Finding related code…');
  }

  // -- Search Codebase --------------------------------------------------------------------

  /**
   * `tests`: tests rank with the project's own code (by default they rank below it);
   * `code`: code only, no documentation sections (the server's kind `code`); otherwise the
   * matching sections come after the code, under a separator.
   */
  async searchCodebase(arg?: { query?: string }, scope: SearchScope = 'all'): Promise<Hit | undefined> {
    const query =
      arg?.query ??
      (await vscode.window.showInputBox({
        title: SEARCH_TITLES[scope],
        prompt: 'Describe the code you are looking for, in words or with names',
        placeHolder: 'e.g. where is the discount applied to a price',
        value: selectedText(),
        ignoreFocusOut: true,
      }));
    if (!query?.trim()) {
      return undefined;
    }
    const args: SearchArgs = { query, ...SEARCH_SCOPES[scope] };
    const result = await this.run<SearchResult>(SERVER_COMMANDS.search, args, 'Searching…');
    if (!result) {
      return undefined;
    }
    const apart = (label: string, hits: Hit[] = []): HitPickItem[] =>
      hits.length > 0 ? [{ label, kind: vscode.QuickPickItemKind.Separator }, ...hits.map(searchItem)] : [];
    const items = [...result.hits.map(searchItem), ...apart('Tests', result.tests), ...apart('Documentation', result.docs)];
    if (items.length === 0) {
      void vscode.window.showInformationMessage(`codekith: no results for "${query}".`);
      return undefined;
    }
    return pickHit(
      items,
      `Results for "${query}"${result.fresh === false ? ' (index behind HEAD)' : ''}`,
      'Pick to open; moving through the list previews each location',
    );
  }

  // -- Reindex / Status -------------------------------------------------------------------

  async reindex(full: boolean): Promise<ReindexResult | undefined> {
    const result = await vscode.window.withProgress(
      {
        location: vscode.ProgressLocation.Notification,
        title: full ? 'codekith: rebuilding the index' : 'codekith: reindexing the workspace',
      },
      () => this.run<ReindexResult>(SERVER_COMMANDS.reindex, { full }),
    );
    if (!result) {
      return undefined;
    }
    this.server.schedulePoll(0);
    const summary =
      `codekith: ${result.indexed} files indexed, ${result.deleted} removed, ` +
      `${result.embedded} chunks embedded; ${result.chunks} chunks in the index.`;
    this.server.output.info(summary);
    if (result.errors.length > 0) {
      void this.warn(`${summary} Errors: ${result.errors.join('; ')}`);
    } else {
      void vscode.window.showInformationMessage(summary);
    }
    return result;
  }

  async showStatus(): Promise<Status | undefined> {
    const status = await this.run<Status>(SERVER_COMMANDS.status, {});
    if (!status) {
      return undefined;
    }
    this.server.statusBar.setStatus(status);
    const output = this.server.output;
    const launch = this.server.launch;
    output.info(`codekith ${status.version}${launch ? ` (${launch.command} ${launch.args.join(' ')})` : ''}`);
    for (const line of statusLines(status)) {
      output.info(line);
    }
    const choice = await vscode.window.showInformationMessage(statusSummary(status), 'Show Details', 'Reindex');
    if (choice === 'Show Details') {
      output.show(true);
    } else if (choice === 'Reindex') {
      void this.reindex(false);
    }
    return status;
  }

  // -- plumbing ---------------------------------------------------------------------------

  /** A server command with errors shown to the user (and `undefined` returned). */
  private async run<T>(command: string, args: object, progressTitle?: string): Promise<T | undefined> {
    const call = () => this.server.execute<T>(command, args);
    try {
      if (!progressTitle) {
        return await call();
      }
      return await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: `codekith: ${progressTitle}` },
        call,
      );
    } catch (error) {
      if (error instanceof ServerCommandError && error.notRunning) {
        const choice = await vscode.window.showErrorMessage(
          'codekith: the language server is not running.',
          'Restart',
          'Show Log',
        );
        if (choice === 'Restart') {
          await this.server.restart('restart requested');
        } else if (choice === 'Show Log') {
          this.server.output.show(true);
        }
      } else {
        await this.warn(`codekith: ${error instanceof Error ? error.message : String(error)}`);
      }
      return undefined;
    }
  }

  private async warn(message: string): Promise<void> {
    const choice = await vscode.window.showWarningMessage(message, 'Show Log');
    if (choice === 'Show Log') {
      this.server.output.show(true);
    }
  }
}

/** The related target: argument, else selected text, else the cursor position, else ask. */
export async function relatedTarget(arg?: RelatedTargetArg): Promise<RelatedArgs | undefined> {
  if (arg?.uri && arg.position) {
    return { uri: arg.uri, position: { line: arg.position.line, character: arg.position.character ?? 0 } };
  }
  if (arg?.query?.trim()) {
    return { query: arg.query };
  }
  if (arg?.symbol?.trim()) {
    return { symbol: arg.symbol };
  }
  const editor = vscode.window.activeTextEditor;
  if (editor && editor.document.uri.scheme === 'file') {
    const text = selectedText();
    if (text) {
      return { query: text };
    }
    const cursor = editor.selection.active;
    return {
      uri: editor.document.uri.toString(),
      position: { line: cursor.line, character: cursor.character },
    };
  }
  const query = await vscode.window.showInputBox({
    title: 'codekith: Find Related Code',
    prompt: 'No file is open: describe the code to relate (a question, a name, or path:line)',
    ignoreFocusOut: true,
  });
  return query?.trim() ? { query } : undefined;
}

function selectedText(): string | undefined {
  const editor = vscode.window.activeTextEditor;
  if (!editor || editor.selection.isEmpty) {
    return undefined;
  }
  const text = editor.document.getText(editor.selection).trim();
  return text ? text.slice(0, MAX_QUERY_CHARS) : undefined;
}

function hitItem(hit: Hit): HitPickItem {
  return { label: `$(${KIND_ICONS[hit.kind] ?? 'symbol-misc'}) ${hit.qualname}`, hit };
}

function searchItem(hit: Hit): HitPickItem {
  return {
    ...hitItem(hit),
    description: location(hit),
    detail: `score ${hit.score.toFixed(3)}${flags(hit)} · ${firstLine(hit.snippet)}`,
  };
}

function location(hit: Hit): string {
  return `${hit.path}:${hit.start_line}-${hit.end_line}`;
}

function flags(hit: Hit): string {
  return (hit.stale ? ' · $(warning) changed since indexed' : '') + (hit.dirty ? ' · unsaved' : '');
}

function firstLine(snippet: string): string {
  return (
    snippet
      .split('\n')
      .map((line) => line.trim())
      .find((line) => line.length > 0) ?? ''
  );
}

function hitRange(hit: Hit): vscode.Range {
  const line = Math.max(hit.start_line - 1, 0);
  return new vscode.Range(new vscode.Position(line, 0), new vscode.Position(line, 0));
}

/** Opens (or previews) a hit's location. */
export async function openHit(hit: Hit, preview: boolean): Promise<void> {
  await vscode.window.showTextDocument(vscode.Uri.parse(hit.uri), {
    selection: hitRange(hit),
    preview,
    preserveFocus: preview,
  });
}

/**
 * A QuickPick of hits: moving through it previews each location in a preview editor, Enter
 * opens it, Escape returns to the editor the user came from.
 */
function pickHit(
  items: HitPickItem[],
  title: string,
  placeholder: string,
  buttons: vscode.QuickInputButton[] = [],
  onButton?: () => Promise<unknown>,
): Promise<Hit | undefined> {
  const origin = vscode.window.activeTextEditor;
  const originSelection = origin?.selection;
  const pick = vscode.window.createQuickPick<HitPickItem>();
  pick.title = title;
  pick.placeholder = placeholder;
  pick.items = items;
  pick.matchOnDescription = true;
  pick.matchOnDetail = true;
  pick.buttons = buttons;
  let preview: Promise<unknown> | undefined;
  return new Promise<Hit | undefined>((resolve) => {
    let accepted: Hit | undefined;
    const disposables: vscode.Disposable[] = [
      pick.onDidChangeActive((active) => {
        const hit = active[0]?.hit;
        if (hit) {
          preview = openHit(hit, true).catch(() => undefined);
        }
      }),
      pick.onDidTriggerButton(() => void onButton?.()),
      pick.onDidAccept(async () => {
        const hit = pick.selectedItems[0]?.hit ?? pick.activeItems[0]?.hit;
        if (!hit) {
          return;
        }
        accepted = hit;
        pick.hide();
        await preview;
        await openHit(hit, false).catch((error) =>
          vscode.window.showWarningMessage(`codekith: cannot open ${hit.path}: ${String(error)}`),
        );
        resolve(hit);
      }),
      pick.onDidHide(async () => {
        disposables.forEach((d) => d.dispose());
        pick.dispose();
        if (!accepted) {
          // Let a preview still opening finish first, or it would win over the restore.
          await preview;
          if (preview && origin) {
            await vscode.window
              .showTextDocument(origin.document, { selection: originSelection, viewColumn: origin.viewColumn })
              .then(undefined, () => undefined);
          }
          resolve(undefined);
        }
      }),
    ];
    pick.show();
  });
}

function statusLines(status: Status): string[] {
  const lines: string[] = [];
  for (const folder of status.folders) {
    const state = folder.indexing ? 'indexing now' : folder.ready ? 'ready' : 'no index yet';
    lines.push(`${folder.root}: ${state}`);
    if (folder.ready) {
      lines.push(
        `  ${folder.chunks ?? 0} chunks in ${folder.files ?? 0} files, ${folder.edges ?? 0} graph edges, model ${folder.model ?? '?'}`,
      );
      const short = (head: unknown) => (typeof head === 'string' && head ? head.slice(0, 10) : 'none');
      lines.push(
        `  index at ${short(folder.index_head)}, HEAD ${short(folder.head)}: ` +
          (folder.fresh === false ? `behind (${folder.stale?.length ?? 0} stale files)` : 'up to date'),
      );
      if (folder.stale?.length) {
        lines.push(`  stale: ${folder.stale.slice(0, 20).join(', ')}`);
      }
      if (folder.dirty?.length) {
        lines.push(`  unsaved: ${folder.dirty.slice(0, 20).join(', ')}`);
      }
      const skipped = Object.keys(folder.skipped ?? {});
      if (skipped.length) {
        lines.push(`  skipped ${skipped.length} files, e.g. ${skipped.slice(0, 5).join(', ')}`);
      }
    }
    if (folder.last_error) {
      lines.push(`  last error: ${folder.last_error}`);
    }
  }
  return lines;
}

function statusSummary(status: Status): string {
  if (status.folders.length === 0) {
    return `codekith ${status.version}: no workspace folder is open.`;
  }
  const parts = status.folders.map((folder) => {
    const name = folder.root.split(/[\\/]/).pop();
    if (!folder.ready) {
      return `${name}: ${folder.indexing ? 'building the index…' : 'no index yet'}`;
    }
    const freshness = folder.fresh === false ? `behind HEAD (${folder.stale?.length ?? 0} stale files)` : 'up to date';
    return `${name}: ${folder.chunks ?? 0} chunks in ${folder.files ?? 0} files, ${freshness}${folder.indexing ? ', indexing' : ''}`;
  });
  return `codekith ${status.version}: ${parts.join('; ')}`;
}
