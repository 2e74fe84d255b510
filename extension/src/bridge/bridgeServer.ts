/**
 * The extension's side of the bridge: JSON-RPC (vscode-jsonrpc) over a per-window local endpoint,
 * a Unix domain socket inside a fresh 0700 directory or a named pipe on Windows — never a network
 * port. A connection must present the window's random token in bridge/hello before anything else
 * is served; any other first message closes it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  CancellationTokenSource,
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
  methods,
  notifications,
  parseRequestArguments,
  serverRequests,
  type ApprovalAskParams,
  type ApprovalAskResult,
  type ApprovalQuestionParams,
  type CallMeta,
  type HelloResult,
  type MethodKey,
  type ParamsOf,
  type ProgressNotification,
  type ResultOf,
} from '../../../common/src/protocol';
import { ShepherdError } from '../core/errors';

export interface RequestContext {
  readonly signal: AbortSignal;
  /** What the MCP server said about its client (name, deadline, an MCP task), beside the params. */
  readonly meta: CallMeta;
  /** Sends terminal/progress to the caller when it asked for progress; a no-op otherwise. */
  readonly progress: (update: Omit<ProgressNotification, 'progressId'>) => void;
  /** The connection the request came on: one MCP client's session. */
  readonly session: string;
  /** Asks the person through the MCP client's elicitation (approval/ask), when the client declared it. */
  readonly elicit?: (question: ApprovalQuestionParams, signal: AbortSignal) => Promise<ApprovalAskResult>;
}

export type BridgeHandlers = {
  [K in Exclude<MethodKey, 'hello'>]: (params: ParamsOf<K>, context: RequestContext) => Promise<ResultOf<K>> | ResultOf<K>;
};

export interface BridgeServerOptions {
  readonly handlers: BridgeHandlers;
  readonly hello: () => Omit<HelloResult, 'protocolVersion'>;
  readonly logger: Logger;
  /** How long a new connection may take to authenticate before it is dropped. */
  readonly authTimeoutMs?: number;
  /** A connection (an MCP client's session) closed: what was allowed for it ends. */
  readonly onSessionEnd?: (session: string) => void;
}

export interface BridgeServer {
  readonly endpoint: string;
  readonly token: string;
  /** Resolves after every connection is closed and the endpoint removed. */
  dispose(): Promise<void>;
}

export async function startBridgeServer(options: BridgeServerOptions): Promise<BridgeServer> {
  const token = randomBytes(32).toString('base64url');
  const { endpoint, cleanup } = await createEndpoint();
  const connections = new Set<{ connection: MessageConnection; socket: net.Socket }>();
  const calls = new CallsInFlight();
  const server = net.createServer((socket) => {
    const entry = { socket, connection: serveConnection(socket, token, options, calls) };
    connections.add(entry);
    socket.on('close', () => connections.delete(entry));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(endpoint, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (error) => options.logger.error('bridge server error', error));
  options.logger.info(`bridge listening on ${endpoint}`);
  let disposed: Promise<void> | undefined;
  return {
    endpoint,
    token,
    dispose: () =>
      (disposed ??= (async () => {
        // No new connections; calls in flight get a moment to answer (the window closing ends
        // their waits), so a client reads why its call ended rather than a dropped connection.
        // close() waits for open connections, so they are ended next.
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        await calls.settled(DISPOSE_ANSWER_MS);
        await new Promise((resolve) => setTimeout(resolve, FLUSH_MS));
        for (const { connection, socket } of connections) {
          connection.dispose();
          socket.end();
          setTimeout(() => socket.destroy(), FLUSH_MS).unref();
        }
        connections.clear();
        await closed;
        await cleanup();
      })()),
  };
}

/** A hello is a few hundred bytes; this leaves room for a client's larger first write. */
const MAX_UNAUTHENTICATED_BYTES = 64 * 1024;

/** How long dispose() waits for calls in flight to answer, and for answers to reach the socket. */
const DISPOSE_ANSWER_MS = 1000;
const FLUSH_MS = 50;

/** Requests being handled, so dispose() can let them answer first (bounded). */
class CallsInFlight {
  private count = 0;
  private idle: (() => void) | undefined;

  async track<T>(work: () => Promise<T>): Promise<T> {
    this.count++;
    try {
      return await work();
    } finally {
      if (--this.count === 0) this.idle?.();
    }
  }

  settled(timeoutMs: number): Promise<void> {
    if (this.count === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, timeoutMs);
      function done(): void {
        clearTimeout(timer);
        resolve();
      }
      this.idle = done;
    });
  }
}

async function createEndpoint(): Promise<{ endpoint: string; cleanup: () => Promise<void> }> {
  if (process.platform === 'win32') {
    return { endpoint: `\\\\.\\pipe\\terminal-shepherd-${randomBytes(12).toString('hex')}`, cleanup: async () => undefined };
  }
  // mkdtemp creates the directory with mode 0700: only this user can reach the socket inside.
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'tshep-'));
  await fs.chmod(dir, 0o700);
  return {
    endpoint: path.join(dir, 'bridge.sock'),
    cleanup: () => fs.rm(dir, { recursive: true, force: true }),
  };
}

function tokensMatch(expected: string, given: string): boolean {
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

let nextSession = 1;

function serveConnection(socket: net.Socket, token: string, options: BridgeServerOptions, calls: CallsInFlight): MessageConnection {
  const { logger, handlers } = options;
  const connection = createBridgeConnection(socket);
  const session = `connection-${nextSession++}`;
  let authenticated = false;
  // Ends the connection once the error response is on its way (end() flushes queued writes).
  const closeSoon = (): void => {
    setTimeout(() => socket.end(), 20);
    setTimeout(() => socket.destroy(), 1000).unref();
  };
  const refuse = (reason: string): ResponseError<void> => {
    logger.warn(`bridge: refused a connection: ${reason}`);
    closeSoon();
    return new ResponseError(BridgeErrorCode.Unauthorized, `Unauthorized: ${reason}`);
  };
  const authTimer = setTimeout(() => {
    if (!authenticated) {
      logger.warn('bridge: a connection did not authenticate in time; closing it');
      socket.destroy();
    }
  }, options.authTimeoutMs ?? 5000);
  socket.on('close', () => {
    clearTimeout(authTimer);
    connection.dispose();
    options.onSessionEnd?.(session);
  });
  socket.on('error', (error) => logger.debug('bridge socket error', error));
  // Before hello a connection gets the bytes a hello needs, no more: a peer streaming data or
  // announcing a huge Content-Length is dropped, never buffered.
  let received = 0;
  const capUnauthenticated = (chunk: Buffer): void => {
    if (authenticated) {
      socket.off('data', capUnauthenticated);
      return;
    }
    received += chunk.length;
    if (received > MAX_UNAUTHENTICATED_BYTES) {
      logger.warn(`bridge: a connection sent ${received} bytes without authenticating; closing it`);
      socket.destroy();
    }
  };
  socket.on('data', capUnauthenticated);

  connection.onRequest(methods.hello.name, (raw: unknown) => {
    const parsed = methods.hello.params.safeParse(raw);
    if (!parsed.success) {
      return refuse('bridge/hello needs {token, protocolVersion}');
    }
    if (!tokensMatch(token, parsed.data.token)) {
      return refuse('wrong token');
    }
    if (parsed.data.protocolVersion !== PROTOCOL_VERSION) {
      closeSoon();
      return new ResponseError(
        BridgeErrorCode.ProtocolVersionMismatch,
        `The VS Code extension speaks bridge protocol ${PROTOCOL_VERSION} but this MCP server speaks ${parsed.data.protocolVersion}. ` +
          'Use the MCP server shipped with the installed extension (dist/mcp-server.js), or update both to the same version.',
      );
    }
    authenticated = true;
    clearTimeout(authTimer);
    return { protocolVersion: PROTOCOL_VERSION, ...options.hello() };
  });

  const register = <K extends Exclude<MethodKey, 'hello'>>(key: K): void => {
    const method = methods[key];
    // Positional params: [params] or [params, meta] (see requestMetaSchema), then the token.
    connection.onRequest(method.name, async (...args: unknown[]) => {
      const cancel = args.pop() as CancellationToken;
      if (!authenticated) {
        return refuse(`${method.name} before bridge/hello`);
      }
      const parsed = parseRequestArguments(key, args);
      if (!parsed.success) {
        return new ResponseError(
          BridgeErrorCode.InvalidInput,
          `Invalid input for ${method.name}: ${parsed.error}. Correct the arguments as the tool's input schema describes and retry.`,
        );
      }
      const { params, meta } = parsed;
      const { progressId, elicitId, reminder, ...about } = meta;
      logger.debug(`bridge: ${method.name}${progressId !== undefined ? ' (progress asked)' : ''}`);
      const abort = new AbortController();
      const onCancel = cancel.onCancellationRequested(() => abort.abort());
      const context: RequestContext = {
        signal: abort.signal,
        meta: about,
        session,
        progress: (update) => {
          if (progressId !== undefined && !abort.signal.aborted) {
            void connection
              .sendNotification(notifications.progress.name, { progressId, ...update })
              .catch(() => undefined);
          }
        },
        ...(elicitId !== undefined ? { elicit: (question, signal) => askClient(connection, { ...question, elicitId }, signal) } : {}),
      };
      try {
        const result = await calls.track(async () => handlers[key](params, context));
        return method.result.parse(result);
      } catch (error) {
        return toResponseError(error, method.name, logger);
      } finally {
        onCancel.dispose();
        // Queued before the response, so it reaches the MCP server first: its reminder costs no second round trip.
        if (reminder === true) await sendReminder(context);
      }
    });
  };
  const sendReminder = async (context: RequestContext): Promise<void> => {
    try {
      const summary = methods.ledgerSummary.result.parse(await handlers.ledgerSummary({}, context));
      void connection.sendNotification(notifications.ledgerReminder.name, summary).catch(() => undefined);
    } catch (error) {
      logger.debug('bridge: no ledger reminder for this answer', error);
    }
  };
  (Object.keys(methods) as MethodKey[]).forEach((key) => {
    if (key !== 'hello') register(key);
  });

  connection.onRequest((method: string) =>
    authenticated
      ? new ResponseError(ErrorCodes.MethodNotFound, `Unknown bridge method ${method}`)
      : refuse(`${method} before bridge/hello`),
  );
  connection.onNotification((method: string) => {
    if (!authenticated) {
      refuse(`notification ${method} before bridge/hello`);
    }
  });
  connection.onError(([error]) => {
    logger.debug('bridge connection error', error);
    if (!authenticated) {
      socket.destroy(); // garbage before hello: nothing on this connection is worth serving
    }
  });
  connection.listen();
  return connection;
}

/** approval/ask to the MCP server; cancelled (the client's question taken down) when the answer is no longer waited for. */
async function askClient(connection: MessageConnection, params: ApprovalAskParams, signal: AbortSignal): Promise<ApprovalAskResult> {
  const cancel = new CancellationTokenSource();
  const onAbort = (): void => cancel.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const raw = await connection.sendRequest(serverRequests.approvalAsk.name, params, cancel.token);
    return serverRequests.approvalAsk.result.parse(raw);
  } finally {
    signal.removeEventListener('abort', onAbort);
    cancel.dispose();
  }
}

function toResponseError(error: unknown, method: string, logger: Logger): ResponseError<void> {
  if (error instanceof ShepherdError) {
    logger.info(`${method}: ${error.message}`);
    return new ResponseError(error.code, error.message);
  }
  logger.error(`${method} failed`, error);
  const message = error instanceof Error ? error.message : String(error);
  return new ResponseError(
    BridgeErrorCode.Internal,
    `Internal error in the Terminal Shepherd extension: ${message}. Details are in its log (command "Terminal Shepherd: Show Log").`,
  );
}
