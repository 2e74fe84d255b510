/**
 * The secret-named variables of each terminal's own environment, for the redactor of that
 * terminal's output: a variable set only for the terminal (terminal.integrated.env.*, the
 * terminal's own env, one exported before the shell started) is not in the extension host's
 * environment. On Linux the shell's /proc/<pid>/environ holds what it started with, read once per
 * shell; the processes the shell runs at the moment of a refresh hold what its rc exported. Elsewhere
 * (no /proc) the terminal's configured env is all there is beside the extension host's.
 */
import { open } from 'node:fs/promises';
import type { Redactor, RedactionSettings } from './redaction';
import { redactorFor } from './redaction';
import { isSecretName, MIN_LITERAL_CHARS } from './secretNames';

type Env = Readonly<Record<string, string | undefined>>;

/** Bound on one environ read: an environment is rarely over a few KB, ARG_MAX caps it at 2 MB. */
const MAX_ENVIRON_BYTES = 256 * 1024;
/** Bound on the processes read per refresh (the shell's children). */
const MAX_CHILDREN = 16;
/** Bound on a refresh: a run start or a result waits no longer for it (what was known before stays). */
const REFRESH_BOUND_MS = 500;
/** Bound on the values kept from terminals that closed (their processes may still be logged). */
const MAX_CLOSED_VALUES = 256;

/** The secret-named entries of a NUL-separated environ block. */
export function secretEntries(environ: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const entry of environ.split('\0')) {
    const eq = entry.indexOf('=');
    if (eq <= 0) continue;
    const name = entry.slice(0, eq);
    const value = entry.slice(eq + 1);
    if (value.length >= MIN_LITERAL_CHARS && isSecretName(name)) found[name] = value;
  }
  return found;
}

/** Reads at most `maxBytes` of a /proc file; undefined when it cannot be read (gone, another user's, no /proc). */
async function readBounded(file: string, maxBytes: number): Promise<string | undefined> {
  let handle;
  try {
    handle = await open(file, 'r');
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } catch {
    return undefined;
  } finally {
    await handle?.close().catch(() => undefined);
  }
}

/** A process's secret-named variables from /proc/<pid>/environ (Linux); {} where it cannot be read. */
export async function procSecretEnviron(pid: number, procRoot = '/proc'): Promise<Record<string, string>> {
  const environ = await readBounded(`${procRoot}/${pid}/environ`, MAX_ENVIRON_BYTES);
  return environ === undefined ? {} : secretEntries(environ);
}

/** The shell's children (Linux, /proc/<pid>/task/<pid>/children); [] where that cannot be read. */
export async function procChildren(pid: number, procRoot = '/proc'): Promise<number[]> {
  const text = await readBounded(`${procRoot}/${pid}/task/${pid}/children`, 4096);
  return (text ?? '').split(/\s+/).filter(Boolean).map(Number).filter(Number.isInteger).slice(0, MAX_CHILDREN);
}

export interface TerminalSecretsOptions {
  /** The OS: /proc is read on Linux only. */
  readonly platform?: NodeJS.Platform;
  /** The environment the terminals inherit (the extension host's). */
  readonly baseEnv?: Env;
  /** The terminals' configured env (terminal.integrated.env.<platform>), read at each refresh. */
  readonly configuredEnv?: () => Env;
  readonly procRoot?: string;
}

interface Known {
  /** The shell whose environ was read (it never changes for a process). */
  readonly shellPid: number | undefined;
  readonly shell: Record<string, string>;
  values: Record<string, string>;
  redactor?: { readonly key: string; readonly redactor: Redactor };
}

export class TerminalSecrets {
  private readonly known = new Map<string, Known>();
  /** Values of terminals that closed (value to name): a process they started may outlive them in the process log. */
  private readonly closed = new Map<string, string>();
  /** Bumped whenever a terminal's values change, for anyTerminal's cache. */
  private version = 0;
  private any?: { readonly key: string; readonly version: number; readonly redactor: Redactor };
  private readonly platform: NodeJS.Platform;
  private readonly baseEnv: Env;

  constructor(private readonly options: TerminalSecretsOptions = {}) {
    this.platform = options.platform ?? process.platform;
    this.baseEnv = options.baseEnv ?? process.env;
  }

  /**
   * Reads what the terminal's environment holds now: the shell's environ once per shell, the
   * environ of its children (at most MAX_CHILDREN small bounded reads), the configured env; waits
   * at most REFRESH_BOUND_MS (a slow read still lands for the next redactor).
   */
  async refresh(terminal: string, shellPid: number | undefined): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const bound = new Promise<void>((resolve) => (timer = setTimeout(resolve, REFRESH_BOUND_MS)));
    try {
      await Promise.race([this.read(terminal, shellPid).catch(() => undefined), bound]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async read(terminal: string, shellPid: number | undefined): Promise<void> {
    const before = this.known.get(terminal);
    const onProc = this.platform === 'linux' && shellPid !== undefined;
    const shell = before && before.shellPid === shellPid ? before.shell : onProc ? await procSecretEnviron(shellPid, this.options.procRoot) : {};
    const children = onProc ? await Promise.all((await procChildren(shellPid, this.options.procRoot)).map((pid) => procSecretEnviron(pid, this.options.procRoot))) : [];
    const configured = this.configuredSecrets();
    const values = Object.assign({}, before?.values, configured, shell, ...children) as Record<string, string>;
    // Only what the extension host's own redactor does not already know.
    for (const [name, value] of Object.entries(values)) if (this.baseEnv[name] === value) delete values[name];
    if (JSON.stringify(values) !== JSON.stringify(before?.values ?? {})) this.version++;
    this.known.set(terminal, { shellPid, shell, values, ...(before?.redactor ? { redactor: before.redactor } : {}) });
  }

  /** The secret-named variables of the terminals' configured env (terminal.integrated.env.<platform>). */
  private configuredSecrets(): Record<string, string> {
    return secretEntries(Object.entries(this.options.configuredEnv?.() ?? {}).map(([k, v]) => `${k}=${v ?? ''}`).join('\0'));
  }

  /** The secret-named variables seen in the terminal and not in the extension host's environment. */
  valuesOf(terminal: string): Readonly<Record<string, string>> {
    return this.known.get(terminal)?.values ?? {};
  }

  /** The redactor for the terminal's output: the window's, plus the terminal's own variables; built again only when either changes. */
  redactor(terminal: string | undefined, settings: RedactionSettings): Redactor {
    const known = terminal === undefined ? undefined : this.known.get(terminal);
    if (!known || Object.keys(known.values).length === 0) return redactorFor(settings);
    const key = JSON.stringify([settings.redactSecrets, settings.redactPatterns, known.values]);
    if (known.redactor?.key !== key) known.redactor = { key, redactor: redactorFor(settings, { ...this.baseEnv, ...known.values }) };
    return known.redactor.redactor;
  }

  /**
   * The redactor for text that belongs to no one terminal or may quote any (the extension log, the
   * process log and ledger, whose command lines may carry a terminal-only secret): the window's,
   * plus every terminal's own variables, those of closed terminals too, and the configured env of
   * terminals to come (a command is checked and logged before its terminal exists).
   */
  anyTerminal(settings: RedactionSettings): Redactor {
    const configured = this.configuredSecrets();
    const key = JSON.stringify([settings.redactSecrets, settings.redactPatterns, configured]);
    if (this.any?.key !== key || this.any.version !== this.version) {
      const values: Record<string, string> = {};
      const add = (name: string, value: string): void => {
        // Two terminals may hold one name with different values: both are kept (`2_DEPLOY_TOKEN` is still secret-named).
        let key = name;
        for (let i = 2; values[key] !== undefined && values[key] !== value; i++) key = `${i}_${name}`;
        values[key] = value;
      };
      for (const [name, value] of Object.entries(configured)) if (this.baseEnv[name] !== value) add(name, value);
      for (const [value, name] of this.closed) add(name, value);
      for (const known of this.known.values()) for (const [name, value] of Object.entries(known.values)) add(name, value);
      const redactor = Object.keys(values).length === 0 ? redactorFor(settings) : redactorFor(settings, { ...this.baseEnv, ...values });
      this.any = { key, version: this.version, redactor };
    }
    return this.any.redactor;
  }

  forget(terminal: string): void {
    for (const [name, value] of Object.entries(this.known.get(terminal)?.values ?? {})) {
      if (this.closed.size >= MAX_CLOSED_VALUES) this.closed.delete(this.closed.keys().next().value!);
      this.closed.set(value, name);
    }
    this.known.delete(terminal);
  }
}
