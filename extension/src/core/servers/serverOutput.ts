/**
 * What a dev server's or watcher's output says: the ready lines of known tools, the local URLs it
 * prints, the port it failed to bind, and the keyboard-shortcut hints some servers print while
 * reading the terminal (which are not questions). Pure: tested on recorded output of real tools.
 */
import { WATCHERS } from '../run/watchOutput';

export interface ReadyLine {
  readonly tool: string;
  readonly pattern: RegExp;
  /**
   * `server`: the line announces a server; readiness still waits for the port to answer (Django
   * and Puma print theirs before they bind). `watcher`: a build watcher with no port; the line
   * itself is the readiness signal when the tree listens on nothing.
   */
  readonly kind: 'server' | 'watcher';
  /** Only for command lines this accepts: a watcher's banner that one-shot runs print too. */
  readonly when?: (command: string) => boolean;
}

/**
 * Verified in the tools' sources (research notes, §Q1) or recorded from their output; the
 * watchers' lines are the banners they print when a cycle is done (run/watchOutput.ts).
 */
export const READY_LINES: readonly ReadyLine[] = [
  { tool: 'Vite / Rsbuild / serve', pattern: /\bLocal:\s+https?:\/\//, kind: 'server' },
  { tool: 'Next.js', pattern: /\bReady in \d/, kind: 'server' },
  { tool: 'Create React App', pattern: /\bCompiled successfully!?/, kind: 'server' },
  { tool: 'Django', pattern: /\bStarting development server at https?:\/\//, kind: 'server' },
  { tool: 'uvicorn', pattern: /\bUvicorn running on https?:\/\//, kind: 'server' },
  { tool: 'Werkzeug / Flask', pattern: /^\s*\* Running on https?:\/\//, kind: 'server' },
  { tool: 'Puma / Rails', pattern: /\* Listening on (tcp|https?):\/\//, kind: 'server' },
  { tool: 'python -m http.server', pattern: /\bServing HTTP on \S+ port \d+/, kind: 'server' },
  { tool: 'ASP.NET', pattern: /\bNow listening on: https?:\/\//, kind: 'server' },
  ...WATCHERS.map((w): ReadyLine => ({ tool: w.tool, pattern: w.banner, kind: 'watcher', ...(w.when ? { when: w.when } : {}) })),
];

export interface ReadyLineMatch {
  readonly line: string;
  readonly kind: ReadyLine['kind'] | 'pattern';
  readonly tool?: string;
}

/** The first line of `text` that a caller's pattern matches, or else a known tool's ready line for `command`. */
export function findReadyLine(text: string, callerPattern: RegExp | undefined, command: string): ReadyLineMatch | undefined {
  const lines = text.split('\n');
  if (callerPattern) {
    const line = lines.find((l) => callerPattern.test(l));
    return line === undefined ? undefined : { line: line.trim(), kind: 'pattern' };
  }
  for (const line of lines) {
    const known = READY_LINES.find((r) => r.pattern.test(line) && (r.when?.(command) ?? true));
    if (known) return { line: line.trim(), kind: known.kind, tool: known.tool };
  }
  return undefined;
}

const LOCAL_HOST = String.raw`(?:localhost|127(?:\.\d{1,3}){3}|0\.0\.0\.0|\[::1?\]|\[::ffff:127\.0\.0\.1\])`;
const URL_PATTERN = new RegExp(String.raw`\b(https?)://(${LOCAL_HOST}):(\d{1,5})(/[^\s"'<>)\]]*)?`, 'gi');
const LOCAL_HOST_ONLY = new RegExp(`^${LOCAL_HOST}$`, 'i');
/** python -m http.server: "Serving HTTP on 0.0.0.0 port 8000" (older versions print no URL). */
const HTTP_SERVER_PATTERN = /\bServing HTTP on (\S+) port (\d{1,5})/g;
/** Puma: "Listening on tcp://127.0.0.1:3000". */
const TCP_PATTERN = new RegExp(String.raw`\btcp://(${LOCAL_HOST}):(\d{1,5})`, 'gi');

export interface LocalUrl {
  /** Normalised for a person to open: wildcard hosts become localhost. */
  readonly url: string;
  readonly port: number;
}

/**
 * Local URLs in the output, in order of appearance, each once. Only loopback and wildcard
 * addresses: a "Network:" URL on another interface is neither probed nor offered.
 */
export function findLocalUrls(text: string): LocalUrl[] {
  const found = new Map<string, LocalUrl>();
  const add = (scheme: string, host: string, port: number, pathPart: string): void => {
    if (!validPort(port)) return;
    const shown = /^(0\.0\.0\.0|\[::\])$/.test(host) ? 'localhost' : host.toLowerCase();
    const url = `${scheme.toLowerCase()}://${shown}:${port}${trimPath(pathPart)}`;
    if (!found.has(url)) found.set(url, { url, port });
  };
  for (const m of text.matchAll(URL_PATTERN)) add(m[1]!, m[2]!, Number(m[3]), m[4] ?? '/');
  for (const m of text.matchAll(HTTP_SERVER_PATTERN)) {
    const host = m[1] === '::' ? '[::]' : m[1]!;
    if (LOCAL_HOST_ONLY.test(host)) add('http', host, Number(m[2]), '/');
  }
  for (const m of text.matchAll(TCP_PATTERN)) add('http', m[1]!, Number(m[2]), '/');
  return [...found.values()];
}

/** A path ends where the sentence goes on: trailing punctuation is not part of it. */
function trimPath(p: string): string {
  const trimmed = p.replace(/[.,;:!?]+$/, '');
  return trimmed.length > 0 ? trimmed : '/';
}

function validPort(port: number): boolean {
  return Number.isInteger(port) && port > 0 && port <= 65535;
}

/** Lines that say a port is taken, with the port when the line names it. */
const PORT_IN_USE: readonly RegExp[] = [
  /\bEADDRINUSE\b[^\n]*?:(\d{1,5})\b/, // Node: listen EADDRINUSE: address already in use :::3000
  /\baddress already in use\b[^\n]*?:(\d{1,5})\b/i, // Go, Rust, uvicorn ("... ('127.0.0.1', 8000): address already in use")
  /\bPort (\d{1,5}) is (already )?in use\b/i, // Vite --strictPort, Next.js
  /\bport (\d{1,5}) is already (in use|allocated)\b/i, // docker
  /\bSomething is already running on port (\d{1,5})/i, // CRA
  /\bThat port is already in use\b/, // Django (the port is in the line before)
  /\bEADDRINUSE\b/,
  /\baddress already in use\b/i,
];

/**
 * Whether the output says the command could not bind a port, and which port: from the error
 * line, else from a local URL the output printed before it (Django), else from the command line.
 */
export function findPortInUse(output: string, command: string): { port: number | undefined; line: string } | undefined {
  for (const line of output.split('\n')) {
    for (const pattern of PORT_IN_USE) {
      const m = pattern.exec(line);
      if (!m) continue;
      const fromLine = m[1] !== undefined ? Number(m[1]) : undefined;
      const port = fromLine !== undefined && validPort(fromLine) ? fromLine : (findLocalUrls(output)[0]?.port ?? portFromCommand(command));
      return { port, line: line.trim() };
    }
  }
  return undefined;
}

/** A port the command line asks for: `--port 8000`, `-p 8000`, `--port=8000`, `runserver 8000`, `http.server 8000`, `:8000`. */
export function portFromCommand(command: string): number | undefined {
  const patterns = [
    /\b(?:runserver|http\.server)\s+(?:[\w.]+:)?(\d{2,5})(?![\d.])/,
    /(?:--port|-p)[=\s]+(\d{2,5})(?![\d.])/,
    /(?:--listen|--bind|-b)[=\s]+[\w.[\]:]*:(\d{2,5})(?![\d.])/,
    /\bPORT=(\d{2,5})(?![\d.])/,
  ];
  for (const p of patterns) {
    const m = p.exec(command);
    if (m && validPort(Number(m[1]))) return Number(m[1]);
  }
  return undefined;
}

/**
 * Keyboard-shortcut hints servers print while they read the terminal for single keys (Vite:
 * "press h + enter to show help"). Such a server reads the terminal but asks nothing, so
 * readiness goes on waiting for its port instead of reporting waiting_for_input.
 */
export function isShortcutHint(line: string): boolean {
  return /\bpress\s+\S{1,3}\s*\+\s*enter\b/i.test(line) || /\bpress\s+(\S|enter)\s+to\s+(show|open|quit|restart|trigger|run|filter)\b/i.test(line);
}
