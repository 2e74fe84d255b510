/** What every bridge message shares: the protocol version, the input bounds, the named error codes. */
import type { z } from 'zod';
import { settingsTable } from '../settings';

/** Bumped on any incompatible change; a client speaking another version is refused at hello. */
export const PROTOCOL_VERSION = 1;

const timeoutSetting = settingsTable['run.defaultTimeoutMs'];

/** Bounds of tool input; a call's timeout has the range of the default-timeout setting. */
export const limits = {
  commandChars: 100_000,
  inputChars: 100_000,
  nameChars: 64,
  readyPatternChars: 1000,
  minTimeoutMs: timeoutSetting.minimum,
  maxTimeoutMs: timeoutSetting.maximum,
  defaultTimeoutMs: timeoutSetting.default,
} as const;

/** Named error codes carried by bridge ResponseErrors (JSON-RPC server error range). */
export const BridgeErrorCode = {
  Unauthorized: -32001,
  ProtocolVersionMismatch: -32002,
  InvalidInput: -32003,
  TerminalBusy: -32010,
  TerminalNotFound: -32011,
  ShellIntegrationUnavailable: -32012,
  TerminalClosed: -32013,
  WorkspaceUntrusted: -32014,
  NoActiveRun: -32015,
  /** The window is closing or reloading: the call's wait ended with it. */
  WindowClosing: -32016,
  /** The caller cancelled before anything was started (LSP's RequestCancelled). */
  Cancelled: -32800,
  ProcessNotOwned: -32020,
  /** Client side: no VS Code window with the extension could be reached. */
  Unreachable: -32050,
  /** Client side: the connection closed while a call was in flight. */
  ConnectionLost: -32051,
  Internal: -32099,
} as const;
export type BridgeErrorCode = (typeof BridgeErrorCode)[keyof typeof BridgeErrorCode];

export const bridgeErrorNames: Record<number, string> = Object.fromEntries(
  Object.entries(BridgeErrorCode).map(([name, code]) => [code, name]),
);

/** Turns a zod failure into one readable sentence per problem, naming the field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length > 0 ? `${issue.path.join('.')}: ` : '';
      return `${where}${issue.message}`;
    })
    .join('; ');
}
