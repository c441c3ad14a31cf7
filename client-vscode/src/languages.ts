/**
 * The languages the codekith server indexes (`server/codekith/languages.py`), by VS Code
 * language id, with the server's name for each. The client's document selector is built
 * from this table and `package.json` activates on every id; a unit test keeps all three
 * in step with the server.
 */
export const LANGUAGES: Readonly<Record<string, string>> = {
  python: 'python',
  markdown: 'markdown',
  restructuredtext: 'rst',
  toml: 'toml',
  yaml: 'yaml',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  typescript: 'typescript',
  typescriptreact: 'typescript',
  go: 'go',
  rust: 'rust',
  java: 'java',
  kotlin: 'kotlin',
  c: 'c',
  cpp: 'cpp',
  csharp: 'csharp',
  ruby: 'ruby',
  php: 'php',
  swift: 'swift',
  scala: 'scala',
  shellscript: 'shell',
  lua: 'lua',
  sql: 'sql',
};

/** Files of every indexed language, on disk (the server reads files, not buffers). */
export const DOCUMENT_SELECTOR = Object.keys(LANGUAGES).map((language) => ({ scheme: 'file', language }));
