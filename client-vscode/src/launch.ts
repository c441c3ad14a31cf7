/**
 * Which command starts `codekith serve`. In order: the `codekith.server.command` setting,
 * the `codekith.server.python` setting, the Python extension's active interpreter (when it
 * has codekith installed), `codekith` on PATH. No VS Code API here: the caller passes what
 * it found, so every rule is unit-tested.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type LaunchSource = 'setting:command' | 'setting:python' | 'python-extension' | 'path';

export interface Launch {
  command: string;
  args: string[];
  source: LaunchSource;
}

export interface LaunchInputs {
  /** `codekith.server.command`: an array (argv) or a string (split on spaces, quotes kept). */
  command?: string | string[];
  /** `codekith.server.python`. */
  python?: string;
  /** The Python extension's active interpreter, if there is one. */
  pythonExtension?: () => Promise<string | undefined>;
  /** Whether an interpreter can import codekith. */
  hasCodekith?: (python: string) => Promise<boolean>;
  /** PATH lookup; `undefined` when not found. */
  which?: (name: string) => string | undefined;
  /** Messages worth a line in the log (why a candidate was skipped). */
  log?: (message: string) => void;
}

export class LaunchError extends Error {}

const PYTHON_MODULE_ARGS = ['-m', 'codekith.cli', 'serve'];

export async function resolveLaunch(inputs: LaunchInputs): Promise<Launch> {
  const log = inputs.log ?? (() => undefined);
  const argv = commandArgv(inputs.command);
  if (argv.length > 0) {
    return { command: argv[0], args: argv.slice(1), source: 'setting:command' };
  }
  const python = (inputs.python ?? '').trim();
  if (python) {
    return { command: python, args: [...PYTHON_MODULE_ARGS], source: 'setting:python' };
  }
  if (inputs.pythonExtension) {
    let interpreter: string | undefined;
    try {
      interpreter = await inputs.pythonExtension();
    } catch (error) {
      log(`The Python extension did not give an interpreter: ${String(error)}`);
    }
    if (interpreter) {
      const check = inputs.hasCodekith ?? canImportCodekith;
      if (await check(interpreter)) {
        return { command: interpreter, args: [...PYTHON_MODULE_ARGS], source: 'python-extension' };
      }
      log(`The Python extension's interpreter ${interpreter} cannot import codekith; trying PATH.`);
    }
  }
  const found = (inputs.which ?? which)('codekith');
  if (found) {
    return { command: found, args: ['serve'], source: 'path' };
  }
  throw new LaunchError(
    'codekith is not installed where the extension can find it: set "codekith.server.command" ' +
      '(e.g. ["/path/to/venv/bin/codekith", "serve"]) or "codekith.server.python", select an ' +
      'interpreter that has codekith installed (pip install codekith), or put codekith on PATH.',
  );
}

/** The setting as argv: arrays verbatim, strings split on whitespace with quotes respected. */
export function commandArgv(command: string | string[] | undefined): string[] {
  if (Array.isArray(command)) {
    return command.filter((part) => typeof part === 'string' && part.length > 0);
  }
  if (typeof command !== 'string') {
    return [];
  }
  const parts: string[] = [];
  const pattern = /"([^"]*)"|'([^']*)'|(\S+)/g;
  for (const match of command.matchAll(pattern)) {
    parts.push(match[1] ?? match[2] ?? match[3]);
  }
  return parts;
}

/** `which`: the first executable `name` on PATH (PATHEXT on Windows). */
export function which(name: string, envPath = process.env.PATH ?? ''): string | undefined {
  const extensions =
    process.platform === 'win32' ? (process.env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of envPath.split(path.delimiter).filter(Boolean)) {
    for (const extension of extensions) {
      const candidate = path.join(dir, name + extension);
      try {
        fs.accessSync(candidate, fs.constants.X_OK);
        if (fs.statSync(candidate).isFile()) {
          return candidate;
        }
      } catch {
        // not here
      }
    }
  }
  return undefined;
}

/** Whether `python -c "import codekith"` succeeds (10 s at most). */
export function canImportCodekith(python: string): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(python, ['-c', 'import codekith'], { timeout: 10_000 }, (error) => resolve(!error));
  });
}

/** The launch as one shell-like line, for the log. */
export function describeLaunch(launch: Launch): string {
  return [launch.command, ...launch.args]
    .map((part) => (/^[\w@%+=:,./-]+$/.test(part) ? part : JSON.stringify(part)))
    .join(' ');
}

/** Whether the launch's executable exists (absolute or relative paths only; names are looked up). */
export function executableProblem(launch: Launch): string | undefined {
  const command = launch.command;
  if (!command.includes('/') && !command.includes('\\')) {
    return which(command) ? undefined : `"${command}" was not found on PATH`;
  }
  if (!fs.existsSync(command)) {
    return `${command} does not exist`;
  }
  return undefined;
}
