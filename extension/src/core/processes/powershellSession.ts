/**
 * One long-lived PowerShell fed over stdin (`-Command -`), because starting PowerShell costs
 * 0.5-2 s and the monitor queries every few hundred ms.
 *
 * Framing, separable from spawning so it is tested with a fake child:
 * - a request is ONE stdin line; the script travels base64 (UTF-8) and is rebuilt with
 *   [ScriptBlock]::Create, so nothing in it is ever shell-escaped or split across lines;
 * - the answer is ONE stdout line `<sentinel> OK|ERR <base64 of UTF-8 text>`, the sentinel
 *   random per request: no output of the script can end or forge another request's answer, and
 *   base64 keeps it immune to the console code page and to newlines inside the JSON;
 * - requests run one at a time, each with a timeout; a timed-out or dead PowerShell is killed
 *   and a new one started for the next request; dispose kills it.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../../../../common/src/logger';
import { silentLogger } from '../../../../common/src/logger';

/** The parts of a ChildProcess the session uses (a fake in tests). */
export interface PowerShellChild {
  readonly stdin: NodeJS.WritableStream;
  readonly stdout: NodeJS.ReadableStream;
  readonly stderr?: NodeJS.ReadableStream | null;
  kill(): void;
  on(event: 'exit', listener: (code: number | null, signal: NodeJS.Signals | null) => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

export class PowerShellTimeoutError extends Error {
  constructor(ms: number) {
    super(`PowerShell did not answer within ${ms} ms`);
    this.name = 'PowerShellTimeoutError';
  }
}

const b64 = (text: string): string => Buffer.from(text, 'utf8').toString('base64');
const unb64 = (text: string): string => Buffer.from(text, 'base64').toString('utf8');

/**
 * The stdin line for one request. The script's result is converted with ConvertTo-Json (one
 * object or an array, nothing for an empty pipeline) and an exception becomes an ERR answer.
 */
export function buildRequestLine(sentinel: string, script: string): string {
  const toB64 = (expr: string): string => `[Convert]::ToBase64String([Text.Encoding]::UTF8.GetBytes([string](${expr})))`;
  return [
    `& { $ProgressPreference = 'SilentlyContinue'; $ErrorActionPreference = 'Stop'; $s = '${sentinel}';`,
    `try { $r = & ([ScriptBlock]::Create([Text.Encoding]::UTF8.GetString([Convert]::FromBase64String('${b64(script)}'))));`,
    `$j = ''; if ($null -ne $r) { $j = ConvertTo-Json -InputObject $r -Compress -Depth 4 };`,
    `[Console]::Out.WriteLine($s + ' OK ' + ${toB64('$j')}) }`,
    `catch { [Console]::Out.WriteLine($s + ' ERR ' + ${toB64('$_')}) };`,
    `[Console]::Out.Flush() }`,
  ].join(' ');
}

export interface ResponseLine {
  readonly ok: boolean;
  /** Decoded text: JSON on OK (possibly empty), the error message on ERR. */
  readonly text: string;
}

/** A byte-order mark, and the control sequences pwsh on Linux and macOS writes on stdout even when
 * it is a pipe (.NET's console switches the cursor keys to application mode, `ESC[?1h`, while it
 * reads stdin): they land in front of the answer's line. */
const LEADING_NOISE = /^(?:\uFEFF|\x1b\[[0-?]*[ -/]*[@-~])+/;

/** The answer carried by `line` for `sentinel`, or undefined when the line is not it. */
export function parseResponseLine(line: string, sentinel: string): ResponseLine | undefined {
  const trimmed = line.replace(LEADING_NOISE, '').trim();
  if (!trimmed.startsWith(`${sentinel} `)) {
    return undefined;
  }
  const [status, payload = ''] = trimmed.slice(sentinel.length + 1).split(' ');
  if (status !== 'OK' && status !== 'ERR') {
    return undefined;
  }
  return { ok: status === 'OK', text: unb64(payload) };
}

export function newSentinel(): string {
  return `__TSHEP_${randomBytes(12).toString('hex')}__`;
}

interface Job {
  readonly script: string;
  readonly timeoutMs: number;
  readonly resolve: (text: string) => void;
  readonly reject: (error: Error) => void;
}

interface InFlight extends Job {
  readonly sentinel: string;
  readonly child: PowerShellChild;
  readonly timer: NodeJS.Timeout;
}

export interface PowerShellSessionOptions {
  readonly spawn: () => PowerShellChild;
  readonly logger?: Logger;
  readonly timeoutMs?: number;
  /** Deaths within `crashWindowMs` before new requests are refused for a while (no crash loop). */
  readonly maxCrashes?: number;
  readonly crashWindowMs?: number;
}

export class PowerShellSession {
  private readonly logger: Logger;
  private readonly timeoutMs: number;
  private readonly maxCrashes: number;
  private readonly crashWindowMs: number;
  private child: PowerShellChild | undefined;
  private readonly queue: Job[] = [];
  private current: InFlight | undefined;
  private crashes: number[] = [];
  private disposed = false;
  private stderrTail = '';
  /** How many PowerShell processes this session started (restarts show as > 1). */
  spawnCount = 0;

  constructor(private readonly options: PowerShellSessionOptions) {
    this.logger = options.logger ?? silentLogger;
    this.timeoutMs = options.timeoutMs ?? 15_000;
    this.maxCrashes = options.maxCrashes ?? 3;
    this.crashWindowMs = options.crashWindowMs ?? 30_000;
  }

  /** Runs `script`; resolves with the JSON text of its result ('' when it returned nothing). */
  run(script: string, timeoutMs = this.timeoutMs): Promise<string> {
    if (this.disposed) {
      return Promise.reject(new Error('PowerShell session is disposed'));
    }
    return new Promise<string>((resolve, reject) => {
      this.queue.push({ script, timeoutMs, resolve, reject });
      this.pump();
    });
  }

  dispose(): void {
    this.disposed = true;
    const error = new Error('PowerShell session is disposed');
    this.failCurrent(error);
    for (const job of this.queue.splice(0)) {
      job.reject(error);
    }
    this.stopChild();
  }

  private pump(): void {
    if (this.current || this.disposed) {
      return;
    }
    const job = this.queue.shift();
    if (!job) {
      return;
    }
    let child: PowerShellChild;
    try {
      child = this.ensureChild();
    } catch (error) {
      job.reject(error as Error);
      this.pump();
      return;
    }
    const sentinel = newSentinel();
    const timer = setTimeout(() => this.onTimeout(sentinel), job.timeoutMs);
    this.current = { ...job, sentinel, child, timer };
    child.stdin.write(`${buildRequestLine(sentinel, job.script)}\n`);
  }

  private ensureChild(): PowerShellChild {
    if (this.child) {
      return this.child;
    }
    const now = Date.now();
    this.crashes = this.crashes.filter((t) => now - t < this.crashWindowMs);
    if (this.crashes.length >= this.maxCrashes) {
      throw new Error(`PowerShell exited ${this.crashes.length} times within ${this.crashWindowMs} ms; not restarting yet. ${this.stderrTail.trim()}`.trim());
    }
    const child = this.options.spawn();
    this.spawnCount++;
    this.child = child;
    this.stderrTail = '';
    let pending = '';
    child.stdout.setEncoding?.('utf8');
    child.stdout.on('data', (chunk: string | Buffer) => {
      pending += chunk.toString();
      let nl: number;
      while ((nl = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        this.onLine(child, line);
      }
    });
    child.stderr?.on('data', (chunk: string | Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000);
      this.logger.debug(`powershell stderr: ${chunk.toString().trim()}`);
    });
    child.stdin.on('error', (error: Error) => this.onDeath(child, `stdin: ${error.message}`));
    child.on('error', (error: Error) => this.onDeath(child, error.message));
    child.on('exit', (code, signal) => this.onDeath(child, `exit ${code ?? signal}`));
    this.logger.debug(`powershell: started (#${this.spawnCount})`);
    return child;
  }

  private onLine(child: PowerShellChild, line: string): void {
    const cur = this.current;
    const answer = cur && cur.child === child ? parseResponseLine(line, cur.sentinel) : undefined;
    if (!cur || !answer) {
      if (line.trim().length > 0) {
        this.logger.trace(`powershell: ${line.trim().slice(0, 500)}`);
      }
      return;
    }
    clearTimeout(cur.timer);
    this.current = undefined;
    this.crashes = [];
    if (answer.ok) {
      cur.resolve(answer.text);
    } else {
      cur.reject(new Error(`PowerShell: ${answer.text.trim()}`));
    }
    this.pump();
  }

  private onTimeout(sentinel: string): void {
    const cur = this.current;
    if (!cur || cur.sentinel !== sentinel) {
      return;
    }
    this.logger.warn(`powershell: request timed out after ${cur.timeoutMs} ms; restarting PowerShell`);
    this.current = undefined;
    cur.reject(new PowerShellTimeoutError(cur.timeoutMs));
    this.stopChild(); // it may be stuck; the queued requests get a fresh one
    this.pump();
  }

  private onDeath(child: PowerShellChild, why: string): void {
    if (child !== this.child) {
      return;
    }
    this.child = undefined;
    if (!this.disposed) {
      this.crashes.push(Date.now());
      this.logger.warn(`powershell: process ended (${why}) ${this.stderrTail.trim().slice(-500)}`.trim());
    }
    this.failCurrent(new Error(`PowerShell ended before answering (${why})`));
    this.pump();
  }

  private failCurrent(error: Error): void {
    const cur = this.current;
    if (cur) {
      clearTimeout(cur.timer);
      this.current = undefined;
      cur.reject(error);
    }
  }

  private stopChild(): void {
    const child = this.child;
    this.child = undefined;
    if (child) {
      try {
        child.kill();
      } catch {
        // already gone
      }
    }
  }
}
