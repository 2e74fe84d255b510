/** The bridge's JSON-RPC connection over a socket, the same on both sides. */
import type net from 'node:net';
import { SocketMessageReader, SocketMessageWriter, createMessageConnection, type MessageConnection } from 'vscode-jsonrpc/node';

/**
 * vscode-jsonrpc re-arms a 10 s "partial message" timer for as long as a message stays
 * incomplete and never clears it on dispose: a peer that died mid-message (or announced a huge
 * Content-Length) kept its reader and buffer alive for good. Nothing here listens for partial
 * messages, so the timer is off.
 */
export function createBridgeConnection(socket: net.Socket): MessageConnection {
  const reader = new SocketMessageReader(socket);
  reader.partialMessageTimeout = 0;
  return createMessageConnection(reader, new SocketMessageWriter(socket));
}
