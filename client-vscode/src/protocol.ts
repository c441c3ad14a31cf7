/**
 * The JSON shapes of the codekith server's `workspace/executeCommand` commands
 * (server/codekith/lsp/server.py); every command takes one JSON object.
 */

/** How current the index is against git HEAD and the open editors. */
export interface Freshness {
  index_head: string | string[];
  head: string | string[];
  fresh: boolean;
  stale: string[];
  dirty: string[];
}

export interface Hit {
  id: string;
  path: string;
  uri: string;
  qualname: string;
  symbol: string;
  kind: string;
  language: string;
  start_line: number;
  end_line: number;
  score: number;
  snippet: string;
  stale: boolean;
  dirty: boolean;
}

export interface SearchArgs {
  query: string;
  k?: number;
  pathPrefix?: string;
  language?: string;
  kind?: string;
  mode?: string;
  /** Looking for tests: they rank with the project's own code (by default below it). */
  tests?: boolean;
  /** Documentation sections listed apart (`docs`), the hits then code only; 0: one list. */
  docs?: number;
  /** Tests listed apart (`tests`), the hits then hold none; 0: one list. */
  testsApart?: number;
}

export interface SearchResult extends Freshness {
  query: string;
  hits: Hit[];
  /** The tests apart, when `testsApart` was asked for and the question did not want tests. */
  tests?: Hit[];
  /** The documentation apart, when `docs` was asked for. */
  docs?: Hit[];
}

export interface RelatedArgs {
  query?: string;
  symbol?: string;
  uri?: string;
  position?: { line: number; character: number };
  depth?: number;
  budget?: number;
  /** 'markdown' adds the bundle's markdown (the server renders it, as the CLI does). */
  format?: 'json' | 'markdown';
  tests?: boolean;
}

export interface BundleItem extends Hit {
  reason: string;
  depth: number;
  tokens: number;
  code: string;
}

export interface Bundle extends Freshness {
  query: string;
  target: string;
  intent: string;
  depth: number;
  items: BundleItem[];
  tokens: number;
  budget: number;
  truncated: boolean;
  /** The bundle as markdown context for an AI assistant (asked with format 'markdown'). */
  markdown?: string;
}

export interface ReindexResult {
  folders: number;
  indexed: number;
  deleted: number;
  embedded: number;
  chunks: number;
  errors: string[];
}

export interface FolderStatus extends Partial<Freshness> {
  root: string;
  indexing: boolean;
  ready: boolean;
  last_error: string;
  model?: string;
  chunks?: number;
  edges?: number;
  files?: number;
  skipped?: Record<string, string>;
  runs?: unknown[];
}

export interface Status {
  version: string;
  folders: FolderStatus[];
}

/** Sent by the server after every finished index run: what it names is searchable now. */
export const INDEXED_NOTIFICATION = 'codekith/indexed';

export interface IndexedParams {
  root: string;
  indexed: string[];
  deleted: string[];
  chunks: number;
}

export const SERVER_COMMANDS = {
  search: 'codekith.search',
  related: 'codekith.related',
  reindex: 'codekith.reindex',
  status: 'codekith.status',
  feedback: 'codekith.feedback',
} as const;
