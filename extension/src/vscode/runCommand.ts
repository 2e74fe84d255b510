/**
 * "Terminal Shepherd: Run a Command…": for a person with no agent at hand. The command goes
 * through terminal_run itself (the MCP server's tool, in process, over this window's bridge: the
 * same checks, terminal, wait and ledger as an agent's call), with its progress in a notification
 * whose Cancel stops the command (the person asked for it: Ctrl+C through terminal_input, as a model
 * stops one; a client's cancel alone never does), and the result opens beside the editor
 * exactly as a model gets it: status, exit code, output, the ledger summary.
 * Called with { command, waitMode?, name? } (walkthrough links, tests), it runs that at once.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import * as vscode from 'vscode';
import type { Logger } from '../../../common/src/logger';
import type { WaitMode } from '../../../common/src/protocol';
import type { InProcessSession } from '../../../mcp-server/src/inProcess';
import { renderModelView, resultHeadline } from './modelView';
import { COMMANDS, PROCESSES_VIEW_ID } from './ui/ids';
import { userAction } from './ui/userFeedback';

export interface RunCommandDependencies {
  readonly logger: Logger & { show(): void };
  /** Connects the in-process MCP session (on first use; closed with the command). */
  readonly connect: () => Promise<InProcessSession>;
}

export interface RunCommandArgs {
  readonly command?: string;
  readonly waitMode?: WaitMode;
  readonly name?: string;
}

const RESULT_SCHEME = 'terminal-shepherd-result';
const TOOL = 'terminal_run';
const MODES: readonly { mode: WaitMode; label: string; detail: string; icon: string }[] = [
  { mode: 'completion', label: 'Run', detail: 'Wait until it has finished: exit code and output', icon: 'play' },
  { mode: 'ready', label: 'Run as a dev server or watcher', detail: 'Wait until it answers (its URL) or prints its ready line; it keeps running', icon: 'globe' },
  { mode: 'background', label: 'Run in the background', detail: 'Return at once; it keeps running in its terminal', icon: 'debug-continue' },
];

/** How long the report after a cancel waits for the command to stop. */
const CANCEL_REPORT_MS = 10_000;
const OPEN_URL = 'Open URL';
const SHOW_PROCESSES = 'Show Processes';

/** A dev server's first URL in a ready (or already running) result. */
function readyUrl(result: CallToolResult): string | undefined {
  const structured = result.structuredContent as { ready?: { urls?: string[] }; server?: { urls?: string[] } } | undefined;
  return structured?.ready?.urls?.[0] ?? structured?.server?.urls?.[0];
}

class Results implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 1;
  add(text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RESULT_SCHEME, path: `/result ${this.next++}.md` });
    this.texts.set(uri.path, text);
    return uri;
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }
}

/** One input: type the command; Enter runs it with the wait asked for (until it finishes unless a link said otherwise), a title button with another. */
async function askCommand(last: string, first: WaitMode): Promise<{ command: string; waitMode: WaitMode } | undefined> {
  const box = vscode.window.createInputBox();
  const enter = MODES.find((m) => m.mode === first)!;
  const buttons = MODES.filter((m) => m.mode !== first).map((m) => ({ iconPath: new vscode.ThemeIcon(m.icon), tooltip: `${m.label}: ${m.detail}`, mode: m.mode }));
  box.title = 'Terminal Shepherd: Run a Command';
  box.prompt = `Enter: ${enter.label.toLowerCase()} (${enter.detail.toLowerCase()}). The buttons above wait differently.`;
  box.placeholder = 'A command, e.g. npm test; it runs in terminal "default" the way an agent\'s terminal_run does';
  box.value = last;
  box.buttons = buttons;
  return new Promise((resolve) => {
    const finish = (waitMode: WaitMode): void => {
      const command = box.value.trim();
      if (!command) return;
      resolve({ command, waitMode });
      box.hide();
    };
    const disposables = [
      box.onDidAccept(() => finish(first)),
      box.onDidTriggerButton((button) => finish((button as (typeof buttons)[number]).mode)),
      box.onDidHide(() => {
        resolve(undefined);
        for (const d of disposables) d.dispose();
        box.dispose();
      }),
    ];
    box.show();
  });
}

export function registerRunCommand(deps: RunCommandDependencies): vscode.Disposable {
  const results = new Results();
  let last = '';
  let connected: Promise<InProcessSession> | undefined;
  const session = (): Promise<InProcessSession> => {
    connected ??= deps.connect().catch((error: unknown) => {
      connected = undefined;
      throw error;
    });
    return connected;
  };

  async function run(args: RunCommandArgs = {}): Promise<void> {
    const asked = args.command ? { command: args.command, waitMode: args.waitMode ?? 'completion' } : await askCommand(last, args.waitMode ?? 'completion');
    if (!asked) return;
    last = asked.command;
    const input: Record<string, unknown> = { command: asked.command, ...(asked.waitMode !== 'completion' ? { waitMode: asked.waitMode } : {}), ...(args.name ? { name: args.name } : {}) };
    const mcp = await session();
    deps.logger.info(`Run a Command: ${TOOL} ${JSON.stringify(input)}`);
    const abort = new AbortController();
    let shown: { tool: string; input: Record<string, unknown>; result: CallToolResult; preface?: string };
    try {
      const result = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: `Terminal Shepherd: ${asked.command}`, cancellable: true },
        (progress, token) => {
          const cancel = token.onCancellationRequested(() => abort.abort());
          return mcp
            .call(TOOL, input, {
              signal: abort.signal,
              // A person may wait as long as the run does: its own timeout bounds it, not the SDK's default.
              timeout: 3_600_000,
              onprogress: (p) => progress.report({ message: p.message ?? '' }),
            })
            .finally(() => cancel.dispose());
        },
      );
      shown = { tool: TOOL, input, result };
    } catch (error) {
      if (!abort.signal.aborted) throw error;
      // A cancelled call answers nothing, for a model too (the client drops it), and leaves the
      // command running. The person asked to stop it, so it is stopped the way a model would stop
      // it; what became of the run is what terminal_state says next.
      const name = args.name ?? 'default';
      const interrupted = await mcp.call('terminal_input', { name, text: '\u0003' });
      const refusal = interrupted.isError ? ` (refused: ${interrupted.content.map((c) => (c.type === 'text' ? c.text : '')).join(' ').trim()})` : '';
      const state = { name, wait: true, timeout: CANCEL_REPORT_MS };
      shown = {
        tool: 'terminal_state',
        input: state,
        result: await mcp.call('terminal_state', state),
        preface:
          `You cancelled ${TOOL} ${JSON.stringify(input)}: the call ended without a result, as a client's cancel does (which leaves the command running), ` +
          `and Run a Command then stopped it with terminal_input "\\u0003"${refusal}. This is what terminal_state reports afterwards.`,
      };
    }
    const { result } = shown;
    const uri = results.add(renderModelView(shown.tool, shown.input, result, shown.preface));
    const document = await vscode.workspace.openTextDocument(uri);
    await vscode.languages.setTextDocumentLanguage(document, 'markdown');
    // Beside what the person works on; in the editor area itself when nothing is open there.
    const column = vscode.window.visibleTextEditors.length > 0 ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    await vscode.window.showTextDocument(document, { viewColumn: column, preview: true, preserveFocus: true });
    const headline = resultHeadline(result);
    deps.logger.info(`Run a Command: ${headline}`);
    const url = readyUrl(result);
    const buttons = [...(url ? [OPEN_URL] : []), SHOW_PROCESSES];
    const show = result.isError ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void Promise.resolve(show(`${asked.command}: ${headline}${url ? ` · ${url}` : ''}`, ...buttons)).then((choice) =>
      choice === OPEN_URL ? vscode.commands.executeCommand(COMMANDS.openUrl, url) : choice === SHOW_PROCESSES ? vscode.commands.executeCommand(`${PROCESSES_VIEW_ID}.focus`) : undefined,
    );
  }

  return vscode.Disposable.from(
    { dispose: () => void connected?.then((s) => s.close()).catch(() => undefined) },
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, results),
    vscode.commands.registerCommand(COMMANDS.runCommand, userAction(deps, 'run the command', (args?: RunCommandArgs) => run(args ?? {}))),
  );
}
