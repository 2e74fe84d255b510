// The test side of the driver extension (test/support/driverExtension): a socket client that runs
// code in the extension host, so tests reach the real `vscode` API of the window they launched.
import * as net from 'node:net';
import * as path from 'node:path';
import { findRepoRoot } from '../../.devtools/scripts/installSteps';
import { waitFor } from './boundedWaits';

export const DRIVER_EXTENSION_DIR = path.join(findRepoRoot(), 'test', 'support', 'driverExtension');

export interface DriverHello {
  pid: number;
  vscodeVersion: string;
}

interface Pending {
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

/** Client of the driver extension: `evaluate(code)` runs `code` as the body of
 * `async (vscode, require, state) => { ... }` in the extension host and returns its result. */
export class Driver {
  private socket: net.Socket | undefined;
  private buffer = '';
  private nextId = 1;
  private pending = new Map<number, Pending>();
  /** The connected extension host. */
  hello: DriverHello | undefined;

  constructor(
    readonly socketPath: string,
    private readonly defaultConnectTimeoutMs: number,
  ) {}

  /** Connects (waiting for the driver to come up, bounded). With `notPid`, waits for a driver in a
   * different extension host than that one (after a window reload or restart). */
  async connect(timeoutMs = this.defaultConnectTimeoutMs, notPid?: number): Promise<DriverHello> {
    if (this.socket && this.hello && this.hello.pid !== notPid) return this.hello;
    this.close();
    return waitFor(`the driver extension to answer on ${this.socketPath} (is the extension host up? did the driver activate?)`, timeoutMs, async () => {
      const hello = await this.tryConnect().catch(() => undefined);
      if (hello && notPid !== undefined && hello.pid === notPid) {
        this.close();
        return undefined;
      }
      return hello;
    }, 250);
  }

  private tryConnect(): Promise<DriverHello> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(this.socketPath);
      socket.setEncoding('utf8');
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error('no hello from the driver'));
      }, 5000);
      let greeted = false;
      socket.on('data', (chunk: string) => {
        this.buffer += chunk;
        let nl;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
          const line = this.buffer.slice(0, nl);
          this.buffer = this.buffer.slice(nl + 1);
          if (!line.trim()) continue;
          let msg: { hello?: DriverHello; id?: number; result?: unknown; error?: { name?: string; message: string; stack?: string } };
          try {
            msg = JSON.parse(line);
          } catch {
            continue;
          }
          if (msg.hello && !greeted) {
            greeted = true;
            clearTimeout(timer);
            this.socket = socket;
            this.hello = msg.hello;
            resolve(msg.hello);
            continue;
          }
          const p = msg.id !== undefined ? this.pending.get(msg.id) : undefined;
          if (!p) continue;
          this.pending.delete(msg.id!);
          clearTimeout(p.timer);
          if (msg.error) {
            const e = new Error(`in the extension host: ${msg.error.message}`);
            e.name = msg.error.name ?? 'Error';
            if (msg.error.stack) e.stack = `${e.name}: in the extension host: ${msg.error.stack.replace(/^[^\n]*\n?/, msg.error.message + '\n')}`;
            p.reject(e);
          } else p.resolve(msg.result);
        }
      });
      socket.on('error', (e) => {
        clearTimeout(timer);
        if (!greeted) reject(e);
      });
      socket.on('close', () => {
        clearTimeout(timer);
        if (!greeted) reject(new Error('driver closed the connection'));
        if (this.socket === socket) {
          this.socket = undefined;
          this.hello = undefined;
          this.buffer = '';
          for (const [, p] of this.pending) {
            clearTimeout(p.timer);
            p.reject(new Error('the driver connection closed (extension host stopped, window reloaded or VS Code stopped)'));
          }
          this.pending.clear();
        }
      });
    });
  }

  /**
   * Runs `code` in the extension host as the body of `async (vscode, require, state) => { ... }`
   * and returns its JSON-serialisable result (undefined stays undefined). `state` is an object kept
   * between calls in that extension host. Throws the extension host's error (message and stack).
   */
  async evaluate<T = unknown>(code: string, options: { timeoutMs?: number } = {}): Promise<T> {
    if (!this.socket) await this.connect();
    const socket = this.socket!;
    const id = this.nextId++;
    const timeoutMs = options.timeoutMs ?? 60_000;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`driver.evaluate timed out after ${Math.round(timeoutMs / 1000)} s: ${code.slice(0, 200)}`));
      }, timeoutMs);
      this.pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
      socket.write(JSON.stringify({ id, method: 'evaluate', params: { code } }) + '\n');
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
    this.hello = undefined;
    this.buffer = '';
  }
}
