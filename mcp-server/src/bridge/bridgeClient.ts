/**
 * The MCP server's side of the bridge: finds the VS Code window (environment given by VS Code, or
 * <workspace>/.devtools/bridge.json), connects, authenticates with bridge/hello, and sends typed,
 * validated requests. A connection that drops fails the calls in flight and is re-established
 * for the next call.
 */
import net from 'node:net';
import {
  CancellationTokenSource,
  ConnectionError,
  ErrorCodes,
  ResponseError,
  type CancellationToken,
  type MessageConnection,
} from 'vscode-jsonrpc/node';
import { createBridgeConnection } from '../../../common/src/bridgeTransport';
import type { Logger } from '../../../common/src/logger';
import {
  BridgeErrorCode,
  PROTOCOL_VERSION,
  bridgeErrorNames,
  describeZodError,
  methods,
  notifications,
  serverRequests,
  type ApprovalAskParams,
  type ApprovalAskResult,
  type CallMeta,
  type ClientAttachParams,
  type MethodKey,
  type ParamsOf,
  type ProgressNotification,
  type RequestMeta,
  type ResultOf,
} from '../../../common/src/protocol';
import { discoverBridges, unreachableMessage, type BridgeTarget } from './windowDiscovery';

export type { BridgeTarget } from './windowDiscovery';

/** A failure the agent can act on: what happened and what to do, with a named code. */
export class BridgeError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'BridgeError';
  }

  /** The code's name (TerminalBusy, Unreachable, ...) for messages. */
  get codeName(): string {
    return bridgeErrorNames[this.code] ?? `error ${this.code}`;
  }
}

export interface BridgeClientOptions {
  /** Given by VS Code when it starts the server; tried first. */
  readonly target?: BridgeTarget;
  /** Workspace folder whose .devtools/bridge.json advertises the window. */
  readonly workspaceFolder?: string;
  /** Also look in every folder above workspaceFolder (it is the client's working directory, not a folder asked for). */
  readonly searchParents?: boolean;
  /** ~/.terminal-shepherd: finds the window whose extension host started this process, and names the open windows. */
  readonly shepherdRoot?: string;
  /** This process's ancestors, nearest first (with shepherdRoot). */
  readonly ancestors?: () => Promise<number[]>;
  readonly logger: Logger;
  readonly clientInfo: { name: string; version: string };
  readonly connectTimeoutMs?: number;
  /** The MCP client's process, sent (client/attach) on every connection so the window records its own tools' processes. */
  readonly attach?: () => Promise<ClientAttachParams | undefined>;
}

export interface RequestOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (update: ProgressNotification) => void;
  /** What the window learns about the call besides its params: the client, its deadline, an MCP task. */
  readonly meta?: CallMeta;
  /** The MCP client can ask the person (elicitation): the extension's questions for this request come here. */
  readonly onApprovalAsk?: (question: ApprovalAskParams, signal: AbortSignal) => Promise<ApprovalAskResult>;
}

interface Connection {
  readonly rpc: MessageConnection;
  readonly socket: net.Socket;
}

const CONNECTION_LOST =
  'The connection to the VS Code window closed during the call (window reloaded or closed?). ' +
  'A command it started may still be running: check with terminal_list or terminal_state once the window is back.';

let nextProgressId = 1;
let nextElicitId = 1;

export class BridgeClient {
  private connection: Promise<Connection> | undefined;
  private readonly progressListeners = new Map<string, (update: ProgressNotification) => void>();
  private readonly approvalListeners = new Map<string, NonNullable<RequestOptions['onApprovalAsk']>>();
  /** The ledger summary the window sent with its latest answer (ledger/reminder), and when it came. */
  private pushedReminder: { readonly summary: ResultOf<'ledgerSummary'>; readonly at: number } | undefined;
  private reconnectTimer: NodeJS.Timeout | undefined;
  private disposed = false;

  constructor(private readonly options: BridgeClientOptions) {}

  /**
   * Connects now and again whenever the connection closes (a window reload), so the window keeps
   * watching the client's processes between calls. Tries again later while no window answers.
   */
  keepConnected(delayMs = RECONNECT_MIN_MS): void {
    if (this.disposed || this.reconnectTimer) return;
    this.connect().then(
      (c) => c.socket.once('close', () => this.retryLater(RECONNECT_MIN_MS)),
      () => this.retryLater(Math.min(delayMs * 2, RECONNECT_MAX_MS)),
    );
  }

  private retryLater(delayMs: number): void {
    if (this.disposed) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.keepConnected(delayMs);
    }, delayMs);
    this.reconnectTimer.unref();
  }

  /**
   * The ledger summary for a tool's reminder: the one the window sent with the latest answer if it
   * came after `since` (the call's start: the call's own answer brings one just before it), else asked for.
   */
  async ledgerSummary(since: number): Promise<ResultOf<'ledgerSummary'>> {
    const pushed = this.pushedReminder;
    return pushed && pushed.at >= since ? pushed.summary : this.request('ledgerSummary', {});
  }

  /** Sends one request; throws BridgeError for every expected failure. */
  async request<K extends Exclude<MethodKey, 'hello'>>(key: K, params: ParamsOf<K>, options: RequestOptions = {}): Promise<ResultOf<K>> {
    const connection = await this.connect();
    const method = methods[key];
    // Cancelled before it could be sent (the MCP SDK starts a handler even when the cancellation came
    // first, and connecting takes a while): its 'abort' event is past, so send nothing at all.
    if (options.signal?.aborted) {
      throw new BridgeError(BridgeErrorCode.Cancelled, `${method.name} was cancelled before it reached the VS Code window; nothing was started there.`);
    }
    const cancel = new CancellationTokenSource();
    const onAbort = (): void => cancel.cancel();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    let progressId: string | undefined;
    if (options.onProgress) {
      progressId = `p${nextProgressId++}`;
      this.progressListeners.set(progressId, options.onProgress);
    }
    let elicitId: string | undefined;
    if (options.onApprovalAsk) {
      elicitId = `e${nextElicitId++}`;
      this.approvalListeners.set(elicitId, options.onApprovalAsk);
    }
    // Positional params [params, meta]: progress and elicitation are asked for beside the params,
    // never inside them (every method's params are strict).
    // Every answer but the summary's own brings the ledger summary with it (the tool's reminder).
    const meta: RequestMeta = { ...options.meta, ...(progressId ? { progressId } : {}), ...(elicitId ? { elicitId } : {}), ...(key !== 'ledgerSummary' ? { reminder: true } : {}) };
    try {
      const raw = await new Promise<unknown>((resolve, reject) => {
        const onClose = (): void => reject(new BridgeError(BridgeErrorCode.ConnectionLost, CONNECTION_LOST));
        connection.socket.once('close', onClose);
        connection.rpc.sendRequest(method.name, params, meta, cancel.token).then(resolve, reject).finally(() => connection.socket.off('close', onClose));
      });
      const parsed = method.result.safeParse(raw);
      if (!parsed.success) {
        throw new BridgeError(BridgeErrorCode.Internal, `The extension sent an invalid ${method.name} result: ${describeZodError(parsed.error)}`);
      }
      return parsed.data as ResultOf<K>;
    } catch (error) {
      throw toBridgeError(error);
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
      if (progressId) this.progressListeners.delete(progressId);
      if (elicitId) this.approvalListeners.delete(elicitId);
    }
  }

  /** The extension asks the person through this request's MCP client; unanswered when that request is gone. */
  private async answerApprovalAsk(raw: unknown, token: CancellationToken): Promise<ApprovalAskResult | ResponseError<void>> {
    const parsed = serverRequests.approvalAsk.params.safeParse(raw);
    if (!parsed.success) return new ResponseError(BridgeErrorCode.InvalidInput, `Invalid approval/ask: ${describeZodError(parsed.error)}`);
    const listener = this.approvalListeners.get(parsed.data.elicitId);
    if (!listener) return { answer: 'unanswered' };
    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    try {
      return await listener(parsed.data, abort.signal);
    } catch (error) {
      this.options.logger.warn('the MCP client could not be asked; the command does not run', error);
      return { answer: 'unanswered' };
    } finally {
      onCancel.dispose();
    }
  }

  /** client/attach on a new connection; best effort (bounded): the tools work without it. */
  private async attachClient(rpc: MessageConnection): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ATTACH_TIMEOUT_MS} ms`)), ATTACH_TIMEOUT_MS)));
    try {
      const params = await Promise.race([this.options.attach?.(), late]);
      if (!params) return;
      const result = methods.attachClient.result.parse(await Promise.race([rpc.sendRequest(methods.attachClient.name, params, {}), late]));
      this.options.logger.info(result.watching ? `the window records the processes of client pid ${params.pid}` : `the window does not record the client's processes: ${result.reason ?? 'no reason given'}`);
    } catch (error) {
      this.options.logger.debug('client/attach failed', error);
    } finally {
      clearTimeout(timer);
    }
  }

  dispose(): void {
    this.disposed = true;
    clearTimeout(this.reconnectTimer);
    const pending = this.connection;
    this.connection = undefined;
    void pending?.then(
      (c) => {
        c.rpc.dispose();
        c.socket.destroy();
      },
      () => undefined,
    );
  }

  private connect(): Promise<Connection> {
    if (!this.connection) {
      const attempt = this.establish();
      this.connection = attempt;
      attempt.then(
        (c) => c.socket.once('close', () => {
          if (this.connection === attempt) this.connection = undefined;
          this.options.logger.info('bridge connection closed; the next call reconnects');
        }),
        () => {
          if (this.connection === attempt) this.connection = undefined;
        },
      );
    }
    return this.connection;
  }

  private async establish(): Promise<Connection> {
    const { workspaceFolder, searchParents, target, shepherdRoot, ancestors } = this.options;
    const workspace = workspaceFolder ? { folder: workspaceFolder, exact: !searchParents } : undefined;
    const found = await discoverBridges({ ...(target ? { target } : {}), ...(workspace ? { workspace } : {}), ...(shepherdRoot ? { shepherdRoot } : {}), ...(ancestors ? { ancestors } : {}) });
    const failures: string[] = [];
    for (const candidate of found.candidates) {
      try {
        return await this.open(candidate.target);
      } catch (error) {
        // A window that refused us (token, protocol version) is an answer; a dead endpoint is not.
        if (error instanceof BridgeError && error.code !== BridgeErrorCode.Unreachable && error.code !== BridgeErrorCode.ConnectionLost) {
          throw error;
        }
        failures.push(`${candidate.source}: ${(error as Error).message}`);
      }
    }
    throw new BridgeError(BridgeErrorCode.Unreachable, unreachableMessage(workspace, found.openWindows, failures));
  }

  private async open(target: BridgeTarget): Promise<Connection> {
    const timeoutMs = this.options.connectTimeoutMs ?? 3000;
    const socket = await connectSocket(target.endpoint, timeoutMs);
    const rpc = createBridgeConnection(socket);
    rpc.onNotification(notifications.progress.name, (raw: unknown) => {
      const parsed = notifications.progress.params.safeParse(raw);
      if (parsed.success) this.progressListeners.get(parsed.data.progressId)?.(parsed.data);
    });
    rpc.onNotification(notifications.ledgerReminder.name, (raw: unknown) => {
      const parsed = notifications.ledgerReminder.params.safeParse(raw);
      if (parsed.success) this.pushedReminder = { summary: parsed.data, at: performance.now() };
    });
    rpc.onRequest(serverRequests.approvalAsk.name, (raw: unknown, token: CancellationToken) => this.answerApprovalAsk(raw, token));
    rpc.onError(([error]) => this.options.logger.debug('bridge connection error', error));
    socket.on('error', (error) => this.options.logger.debug('bridge socket error', error));
    rpc.listen();
    // A socket that accepts but never answers (a hung window) must not hold every call forever.
    const silent = setTimeout(() => socket.destroy(), timeoutMs);
    // A window that dies during the hello (or the silence above) closes the socket, and the pending
    // request would never settle: every later call would wait on this connection forever.
    const closed = new Promise<never>((_, reject) => socket.once('close', () => reject(new BridgeError(BridgeErrorCode.ConnectionLost, CONNECTION_LOST))));
    try {
      const raw = await Promise.race([
        rpc.sendRequest(methods.hello.name, {
          token: target.token,
          protocolVersion: PROTOCOL_VERSION,
          client: this.options.clientInfo,
        }),
        closed,
      ]);
      const hello = methods.hello.result.parse(raw);
      this.options.logger.info(`connected to the VS Code window (extension host pid ${hello.windowPid}, extension ${hello.extensionVersion})`);
      clearTimeout(silent);
      // Before any call goes out on this connection: what the call starts is then the client's.
      await this.attachClient(rpc);
      return { rpc, socket };
    } catch (error) {
      rpc.dispose();
      socket.destroy();
      throw toBridgeError(error);
    } finally {
      clearTimeout(silent);
    }
  }
}

/** How soon a closed or refused connection is tried again (doubling up to the max while no window answers). */
const RECONNECT_MIN_MS = 1000;
const RECONNECT_MAX_MS = 30_000;
/** How long a new connection waits for client/attach (finding the client costs a CIM query on Windows). */
const ATTACH_TIMEOUT_MS = 6000;

function connectSocket(endpoint: string, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.createConnection(endpoint);
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new BridgeError(BridgeErrorCode.Unreachable, `no answer from ${endpoint} within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(new BridgeError(BridgeErrorCode.Unreachable, `cannot connect to ${endpoint} (${error.code ?? error.message})`));
    });
  });
}

/** Socket errors that mean the window went away mid-call. */
const LOST_SOCKET_CODES = new Set(['EPIPE', 'ECONNRESET', 'ECONNREFUSED', 'ERR_STREAM_DESTROYED', 'ERR_STREAM_WRITE_AFTER_END']);

/** Classifies a failure by its code (never by its message text). */
function toBridgeError(error: unknown): BridgeError {
  if (error instanceof BridgeError) return error;
  if (error instanceof ResponseError) {
    // vscode-jsonrpc rejects the calls in flight with these when the connection ends.
    const lost = error.code === ErrorCodes.PendingResponseRejected || error.code === ErrorCodes.ConnectionInactive;
    return lost ? new BridgeError(BridgeErrorCode.ConnectionLost, CONNECTION_LOST) : new BridgeError(error.code, error.message);
  }
  if (error instanceof ConnectionError || LOST_SOCKET_CODES.has((error as NodeJS.ErrnoException | undefined)?.code ?? '')) {
    return new BridgeError(BridgeErrorCode.ConnectionLost, CONNECTION_LOST);
  }
  return new BridgeError(BridgeErrorCode.Internal, error instanceof Error ? error.message : String(error));
}
