/**
 * One status bar item: server start-up, indexing progress (from `$/progress`), and a
 * warning when the index is behind git HEAD (`fresh: false` in codekith.status).
 */
import * as vscode from 'vscode';
import type { Status } from './protocol';

export type ServerState = 'stopped' | 'starting' | 'running' | 'failed';

export interface ProgressValue {
  kind: 'begin' | 'report' | 'end';
  title?: string;
  message?: string;
  percentage?: number;
}

interface ActiveProgress {
  title: string;
  message: string;
  percentage?: number;
}

export class IndexStatusBar implements vscode.Disposable {
  readonly item: vscode.StatusBarItem;
  state: ServerState = 'stopped';
  status: Status | undefined;
  failure = '';
  private readonly progress = new Map<string, ActiveProgress>();
  /** Every `$/progress` value seen, oldest first (the last 50), for the log and the tests. */
  readonly progressLog: Array<{ token: string } & ProgressValue> = [];

  constructor() {
    this.item = vscode.window.createStatusBarItem('codekith.status', vscode.StatusBarAlignment.Left, 10);
    this.item.name = 'codekith';
    this.item.command = 'codekith.showStatus';
    this.render();
    this.item.show();
  }

  setState(state: ServerState, failure = ''): void {
    this.state = state;
    this.failure = failure;
    if (state !== 'running') {
      this.progress.clear();
    }
    this.render();
  }

  onProgress(token: string, value: ProgressValue): void {
    this.progressLog.push({ token, ...value });
    this.progressLog.splice(0, Math.max(0, this.progressLog.length - 50));
    if (value.kind === 'end') {
      this.progress.delete(token);
    } else {
      const previous = this.progress.get(token);
      this.progress.set(token, {
        title: value.title ?? previous?.title ?? 'codekith: indexing',
        message: value.message ?? previous?.message ?? '',
        percentage: value.percentage ?? previous?.percentage,
      });
    }
    this.render();
  }

  setStatus(status: Status | undefined): void {
    this.status = status;
    this.render();
  }

  get indexing(): boolean {
    return this.progress.size > 0 || (this.status?.folders ?? []).some((f) => f.indexing || !f.ready);
  }

  get stale(): boolean {
    return (this.status?.folders ?? []).some((f) => f.ready && f.fresh === false);
  }

  private render(): void {
    const item = this.item;
    item.backgroundColor = undefined;
    if (this.state === 'failed') {
      item.text = '$(error) codekith';
      item.tooltip = `codekith: the server is not running. ${this.failure}\nClick for details.`;
      item.command = 'codekith.showLog';
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
      return;
    }
    item.command = 'codekith.showStatus';
    if (this.state === 'starting' || this.state === 'stopped') {
      item.text = this.state === 'starting' ? '$(loading~spin) codekith' : '$(circle-slash) codekith';
      item.tooltip = this.state === 'starting' ? 'codekith: starting the server' : 'codekith: stopped';
      return;
    }
    const active = [...this.progress.values()].pop();
    if (active) {
      const percent = active.percentage !== undefined ? ` ${active.percentage}%` : '';
      item.text = `$(sync~spin) codekith${percent}`;
      item.tooltip = `${active.title}${active.message ? `: ${active.message}` : ''}`;
      return;
    }
    const folders = this.status?.folders ?? [];
    if (folders.some((f) => f.indexing || !f.ready)) {
      item.text = '$(sync~spin) codekith';
      item.tooltip = 'codekith: building the index';
      return;
    }
    const chunks = folders.reduce((sum, f) => sum + (f.chunks ?? 0), 0);
    if (this.stale) {
      const staleFiles = folders.reduce((sum, f) => sum + (f.stale?.length ?? 0), 0);
      item.text = '$(warning) codekith: stale';
      item.tooltip =
        `codekith: the index is behind HEAD (${staleFiles} changed files not yet indexed). ` +
        'It catches up on its own; click for status, or run "codekith: Reindex Workspace".';
      item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
      return;
    }
    item.text = '$(search) codekith';
    item.tooltip = this.status
      ? `codekith ${this.status.version}: ${chunks} chunks indexed, up to date with HEAD`
      : 'codekith: running';
  }

  dispose(): void {
    this.item.dispose();
  }
}
