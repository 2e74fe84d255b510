// The parts every idempotent installer here is built from (code-server in vscodeInstall.ts, the
// npm fixtures and the real MCP clients in test/support): where the repository is, commands run with
// their output in a log and a time limit, marker files that say a step finished, a lock directory
// against concurrent installs, and a nested npm that does not inherit the outer npm's config.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The longest one install step (a command, or the wait for another process's lock) may take. */
export const STEP_TIMEOUT_MS = 15 * 60_000;

/** The repository root: the nearest folder upwards holding package.json named terminal-shepherd. */
export function findRepoRoot(start?: string): string {
  const starts = [start, typeof __dirname === 'string' && path.isAbsolute(__dirname) ? __dirname : undefined, process.cwd()];
  for (const s of starts) {
    if (!s) continue;
    let dir = path.resolve(s);
    for (;;) {
      const pj = path.join(dir, 'package.json');
      if (fs.existsSync(pj)) {
        try {
          if (JSON.parse(fs.readFileSync(pj, 'utf8')).name === 'terminal-shepherd') return dir;
        } catch {
          /* keep looking */
        }
      }
      const up = path.dirname(dir);
      if (up === dir) break;
      dir = up;
    }
  }
  throw new Error('Cannot find the terminal-shepherd repository root (package.json named "terminal-shepherd")');
}

export function commandOnPath(command: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir) continue;
    const p = path.join(dir, command);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** npm's CLI script, to run it with Node 24 rather than the system Node. */
export function npmCliScript(): string {
  const fromEnv = process.env.npm_execpath;
  if (fromEnv && /npm-cli\.js$/.test(fromEnv) && fs.existsSync(fromEnv)) return fromEnv;
  const npm = commandOnPath('npm');
  if (!npm) throw new Error('npm is not on PATH');
  const real = fs.realpathSync(npm);
  if (real.endsWith('.js')) return real;
  const guess = path.join(path.dirname(real), '..', 'lib', 'node_modules', 'npm', 'bin', 'npm-cli.js');
  if (fs.existsSync(guess)) return guess;
  throw new Error(`Cannot find npm-cli.js for ${npm}`);
}

/** Environment for a nested npm: without any npm_* variable of an enclosing `npm test`/`npm start`.
 * npm reads every npm_config_* variable back as its own config, so the outer npm's (Node 20) user agent,
 * prefix and nodedir would leak into the Node 24 install: code-server's postinstall reads the Node major
 * from npm_config_user_agent and refuses anything but 24. */
export function cleanNpmEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    const lk = k.toLowerCase();
    if (lk.startsWith('npm_') || lk === 'init_cwd') continue;
    env[k] = v;
  }
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', ...extra };
}

export function readMarker(file: string): Record<string, unknown> | undefined {
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

export function writeMarker(file: string, data: Record<string, unknown>): void {
  fs.writeFileSync(file, JSON.stringify({ ...data, installedAt: new Date().toISOString() }, null, 2) + '\n');
}

/** Empties an install folder except nothing: a fresh start for a step without its marker. */
export function resetFolder(dir: string, packageName: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: packageName, private: true, description: 'Installed by .devtools/scripts/vscodeInstall.ts; safe to delete.' }, null, 2) + '\n',
  );
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  logFile: string;
  log: (m: string) => void;
  what: string;
  timeoutMs?: number;
}

/** Runs a command with its output appended to logFile, a heartbeat every 20 s, a time limit, and
 * the log's tail in the error when it fails. */
export function run(command: string, args: string[], o: RunOptions): Promise<void> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    fs.appendFileSync(o.logFile, `\n$ ${command} ${args.join(' ')}   (cwd ${o.cwd ?? process.cwd()}, ${new Date().toISOString()})\n`);
    const out = fs.openSync(o.logFile, 'a');
    const child = spawn(command, args, { cwd: o.cwd, env: o.env ?? process.env, stdio: ['ignore', out, out], detached: true });
    fs.closeSync(out);
    const heartbeat = setInterval(() => o.log(`  ... ${o.what} still running (${Math.round((Date.now() - started) / 1000)} s)`), 20_000);
    const limit = o.timeoutMs ?? STEP_TIMEOUT_MS;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* gone */
      }
    }, limit);
    const done = (err?: Error) => {
      clearInterval(heartbeat);
      clearTimeout(timer);
      if (err) reject(err);
      else resolve();
    };
    child.on('error', (e) => done(new Error(`${o.what}: cannot start ${command}: ${e.message}`)));
    child.on('exit', (code, signal) => {
      const secs = Math.round((Date.now() - started) / 1000);
      if (code === 0) {
        o.log(`  ${o.what} done in ${secs} s`);
        done();
      } else {
        const why = timedOut ? `timed out after ${Math.round(limit / 1000)} s` : `failed (exit ${code ?? signal})`;
        done(new Error(`${o.what} ${why}. Last lines of ${o.logFile}:\n${tail(o.logFile, 40)}`));
      }
    });
  });
}

export function tail(file: string, lines: number): string {
  try {
    return fs.readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A lock directory (mkdir is atomic) holding the owner's pid; a lock whose owner died is taken over. Also used for the npm fixtures cached beside code-server. */
export async function withLock<T>(lockDir: string, timeoutMs: number, log: (m: string) => void, fn: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let said = false;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        /* being written, or the owner died between mkdir and write */
      }
      let age = 0;
      try {
        age = Date.now() - fs.statSync(lockDir).mtimeMs;
      } catch {
        continue; // released just now
      }
      if ((Number.isFinite(owner) && owner > 0 && !pidAlive(owner)) || (!Number.isFinite(owner) && age > 10_000)) {
        log(`taking over a stale install lock (owner ${Number.isFinite(owner) ? owner : 'unknown'} is gone)`);
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`Timed out after ${Math.round(timeoutMs / 1000)} s waiting for another install (pid ${owner}) holding ${lockDir}`);
      }
      if (!said) {
        log(`another process (pid ${owner}) is installing VS Code; waiting for it`);
        said = true;
      }
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
