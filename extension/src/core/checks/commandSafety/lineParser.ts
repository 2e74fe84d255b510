/**
 * Where a command line is parsed. In the extension, in a worker thread (parseWorker.ts): the first
 * parse with a grammar compiles its WebAssembly on the thread that calls it (V8 compiles wasm
 * functions lazily), one synchronous call of 50-140 ms for PowerShell that no slicing can split,
 * and a pathological line may run up to its bound; neither may hold the extension host's loop. In
 * tests and benchmarks of the decision itself, in process.
 * Every parse is bounded: the parser stops after PARSE_BOUND_MS (its progress callback); a worker
 * that has not answered within WORKER_BOUND_MS is terminated (the line asks) and started again at
 * the next line.
 */
import { Worker } from 'node:worker_threads';
import { MAX_COMMANDS, PARSE_BOUND_MS } from './lineBounds';
import type { GrammarName, GrammarPaths, LoadedGrammars } from './shellGrammars';
import { parseCommandLine, type ParsedLine } from './shellSyntax';

export interface LineParser {
  /** The line's commands; rejects when it cannot be read within the bound (the caller asks). */
  parse(grammar: GrammarName, line: string): Promise<ParsedLine>;
}

/** Parses on the calling thread: for tests and the in-process benchmark. */
export function inProcessParser(grammars: LoadedGrammars): LineParser {
  // async: a parse that throws (past its bound) rejects.
  return { parse: async (grammar, line) => parseCommandLine(grammars, grammar, line, performance.now() + PARSE_BOUND_MS, MAX_COMMANDS) };
}

/** How long a worker may take to answer one line (ms): its own bound is 25 ms; the rest is a loaded machine's scheduling. */
export const WORKER_BOUND_MS = 5000;
/** How long a new worker may take to load the grammars (ms). */
export const WORKER_LOAD_BOUND_MS = 30_000;

/** Messages between WorkerParser and parseWorker.ts. */
export type ToWorker = { readonly id: number; readonly grammar: GrammarName; readonly line: string };
export type FromWorker =
  | { readonly kind: 'ready'; readonly loadMs: number }
  | { readonly kind: 'loadFailed'; readonly message: string }
  | { readonly kind: 'parsed'; readonly id: number; readonly parsed: ParsedLine }
  | { readonly kind: 'failed'; readonly id: number; readonly message: string };

export interface WorkerParserOptions {
  /** The worker's script (dist/parseWorker.js; the .ts source with tsx in tests). */
  readonly script: string;
  readonly grammars: GrammarPaths;
  readonly execArgv?: readonly string[];
  readonly boundMs?: number;
  readonly loadBoundMs?: number;
}

interface Running {
  readonly worker: Worker;
  /** Resolves with the grammars' load time once the worker can parse. */
  readonly ready: Promise<number>;
  /** Fails `ready` (a worker stopped before it could parse). */
  readonly failStart: (error: Error) => void;
  readonly pending: Map<number, { resolve(parsed: ParsedLine): void; reject(error: Error): void }>;
}

/**
 * Lines parsed lately are kept, parsing being a pure function of the grammar and the line: an
 * agent types the same lines again and again (its tests, `git status`), and each worker answer is a
 * hop to another thread, on the call's path before typing, that a loaded machine may schedule late.
 */
const RECENT_LINES = 64;
/** Longer lines are parsed every time (a pasted script is rarely typed twice). */
const RECENT_LINE_CHARS = 2000;

/** Parses in a worker thread, started on first use (or by start()) and again after a failure. */
export class WorkerParser implements LineParser {
  private running: Running | undefined;
  private nextId = 1;
  /** Least recently used first. */
  private readonly recent = new Map<string, ParsedLine>();
  private readonly boundMs: number;
  private readonly loadBoundMs: number;

  constructor(private readonly options: WorkerParserOptions) {
    this.boundMs = options.boundMs ?? WORKER_BOUND_MS;
    this.loadBoundMs = options.loadBoundMs ?? WORKER_LOAD_BOUND_MS;
  }

  /** Starts the worker now (so the first line does not wait for the grammars); resolves with their load time (ms). */
  start(): Promise<number> {
    return this.worker().ready;
  }

  async parse(grammar: GrammarName, line: string): Promise<ParsedLine> {
    const key = `${grammar}\0${line}`;
    const known = this.recent.get(key);
    if (known) {
      this.recent.delete(key);
      this.recent.set(key, known);
      return known;
    }
    const parsed = await this.parseInWorker(grammar, line);
    if (line.length <= RECENT_LINE_CHARS) {
      this.recent.set(key, parsed);
      if (this.recent.size > RECENT_LINES) this.recent.delete(this.recent.keys().next().value!);
    }
    return parsed;
  }

  private async parseInWorker(grammar: GrammarName, line: string): Promise<ParsedLine> {
    const running = this.worker();
    await running.ready;
    const id = this.nextId++;
    return new Promise<ParsedLine>((resolve, reject) => {
      const timer = setTimeout(() => this.stop(running, new Error(`reading it took longer than ${this.boundMs} ms`)), this.boundMs);
      running.pending.set(id, {
        resolve: (parsed) => (clearTimeout(timer), resolve(parsed)),
        reject: (error) => (clearTimeout(timer), reject(error)),
      });
      running.worker.postMessage({ id, grammar, line } satisfies ToWorker);
    });
  }

  dispose(): void {
    if (this.running) this.stop(this.running, new Error('the command safety check was stopped'));
  }

  private worker(): Running {
    if (this.running) return this.running;
    const worker = new Worker(this.options.script, { workerData: this.options.grammars, execArgv: [...(this.options.execArgv ?? [])] });
    const pending: Running['pending'] = new Map();
    let loaded: (ms: number) => void = () => undefined;
    let failStart: (error: Error) => void = () => undefined;
    const ready = new Promise<number>((resolve, reject) => ((loaded = resolve), (failStart = reject)));
    const running: Running = { worker, ready, pending, failStart };
    const loadTimer = setTimeout(() => this.stop(running, new Error(`the shell grammars did not load within ${this.loadBoundMs} ms`)), this.loadBoundMs);
    ready.then(() => clearTimeout(loadTimer), () => clearTimeout(loadTimer));
    worker.on('message', (message: FromWorker) => {
      if (message.kind === 'ready') loaded(message.loadMs);
      else if (message.kind === 'loadFailed') this.stop(running, new Error(message.message));
      else {
        const waiting = pending.get(message.id);
        pending.delete(message.id);
        if (message.kind === 'parsed') waiting?.resolve(message.parsed);
        else waiting?.reject(new Error(message.message));
      }
    });
    worker.on('error', (error) => this.stop(running, error));
    worker.on('exit', (code) => this.stop(running, new Error(`the parser's worker exited (code ${code})`)));
    // Another line starts it again; until then it holds no process open.
    worker.unref();
    return (this.running = running);
  }

  /** Fails whatever waits on this worker (those lines ask) and ends it; the next line starts a new one. */
  private stop(running: Running, error: Error): void {
    if (this.running === running) this.running = undefined;
    running.failStart(error);
    for (const waiting of running.pending.values()) waiting.reject(error);
    running.pending.clear();
    void running.worker.terminate();
  }
}
