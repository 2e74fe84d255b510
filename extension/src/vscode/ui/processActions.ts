/**
 * The things a user can do to tracked processes, shared by the pick, the tree view, the
 * notifications and the commands: kill a tree, kill the orphans, reveal a terminal, copy a command
 * line, open the ledger. Each says what happened; expected failures are messages, not exceptions.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import * as vscode from 'vscode';
import { BridgeErrorCode, type KillResult, type TrackedProcess } from '../../../../common/src/protocol';
import { LEDGER_FILES } from '../../core/ledger/formats';
import type { ProcessUiDependencies } from './dependencies';
import { countProcesses, describeKill, processPhrase, type ProcessFacts } from './format';
import { allOrphans, buildOverview, findProcess, treeOf, type ProcessOverview } from './processModel';
import { errorText, showFailure, showPartialFailure } from './userFeedback';

/** Lines of the Kill Orphans confirmation; more are counted. */
const CONFIRM_MAX_LISTED = 15;

export class ProcessActions {
  constructor(
    private readonly deps: ProcessUiDependencies,
    /** Called after anything that changes what the views show (they re-render). */
    private readonly changed: () => void = () => undefined,
  ) {}

  /** What the ledger and the terminal service know now (from memory, no I/O). */
  overview(): ProcessOverview {
    return buildOverview(this.deps.ledger.list(), this.deps.terminals.list(), this.deps.servers.list());
  }

  /** Asks the ledger to look at the OS now (new processes, exits, ports); the views follow. */
  async refresh(): Promise<void> {
    await this.deps.ledger.refresh();
    this.changed();
  }

  /**
   * Kills a process and its descendants, without asking: the user picked this one process, the
   * click is the decision. Says which pids died and which did not. Resolves to the kill result,
   * or undefined when nothing was done (already gone, refused; the user was told).
   */
  async killTree(pid: number): Promise<KillResult | undefined> {
    const row = findProcess(this.overview(), pid);
    const known: ProcessFacts[] = row ? treeOf(row.process) : [];
    const label = row ? processPhrase(row.process) : `pid ${pid}`;
    let result: KillResult;
    try {
      result = await this.deps.ledger.kill(pid);
    } catch (error) {
      this.changed();
      if (isNotOwned(error) && row && !findProcess(this.overview(), pid)) {
        // It was listed but ended before the click: the outcome the user wanted.
        void vscode.window.showInformationMessage(`${capitalize(label)} had already exited.`);
        return undefined;
      }
      this.deps.logger.warn(`ui: kill ${label} failed`, error);
      void showFailure(this.deps, `Could not kill ${label}: ${errorText(error)}`);
      return undefined;
    }
    this.changed();
    this.deps.logger.info(`ui: killed the tree of ${label}: killed [${result.killed.join(', ')}], failed [${result.failed.join(', ')}]`);
    this.report(describeKill(result, known));
    return result;
  }

  /**
   * Kills every orphan. With `confirm`, a modal first lists what will die (name, pid, ports,
   * where it ran); the Kill button of an "ask" notification is that confirmation already.
   */
  async killOrphans(options: { confirm: boolean }): Promise<KillResult | undefined> {
    await this.deps.ledger.refresh().catch((error: unknown) => this.deps.logger.warn('ui: refresh before Kill Orphans failed', error));
    const orphans = allOrphans(this.overview());
    if (orphans.length === 0) {
      void vscode.window.showInformationMessage('No orphaned processes: nothing an earlier window left running is alive.');
      this.changed();
      return undefined;
    }
    if (options.confirm) {
      const choice = await vscode.window.showWarningMessage(
        `Kill ${countProcesses(orphans.length, 'orphaned')}?`,
        { modal: true, detail: confirmationDetail(orphans) },
        'Kill',
      );
      if (choice !== 'Kill') return undefined;
    }
    const result = await this.deps.ledger.killOrphans();
    this.changed();
    this.deps.logger.info(`ui: killed orphans: killed [${result.killed.join(', ')}], failed [${result.failed.join(', ')}]`);
    this.report(describeKill(result, orphans, 'orphaned processes'));
    return result;
  }

  /** Shows a managed terminal; says so when it has closed meanwhile. */
  revealTerminal(name: string): void {
    if (!this.deps.terminals.reveal(name)) {
      void vscode.window.showInformationMessage(`Terminal "${name}" is no longer open.`);
      this.changed();
    }
  }

  async copyCommandLine(process: Pick<TrackedProcess, 'name' | 'pid' | 'commandLine'>): Promise<void> {
    await vscode.env.clipboard.writeText(process.commandLine);
    // A brief confirmation where the eye is not disturbed (a notification would be noise).
    vscode.window.setStatusBarMessage(`$(check) Copied the command line of ${processPhrase({ ...process, ports: [], startedAt: '' })}`, 3000);
  }

  /** A dev server's URL in the default browser (or wherever the OS opens http links). */
  async openUrl(url: string): Promise<void> {
    if (!(await vscode.env.openExternal(vscode.Uri.parse(url)))) {
      void vscode.window.showInformationMessage(`${url} was not opened.`);
    }
  }

  /** A dev server's URL inside VS Code, in the built-in Simple Browser. */
  async openUrlInSimpleBrowser(url: string): Promise<void> {
    await vscode.commands.executeCommand('simpleBrowser.show', url);
  }

  /** Opens process-log.jsonl at its end (the newest events), or says why there is none. */
  async openLedger(): Promise<void> {
    if (this.deps.dataDir === undefined) {
      void vscode.window.showInformationMessage('There is no process ledger: open a folder first (the ledger lives in its .devtools folder).');
      return;
    }
    const file = path.join(this.deps.dataDir, LEDGER_FILES.log);
    const exists = await fs.stat(file).then(
      (s) => s.isFile(),
      () => false,
    );
    if (!exists) {
      void vscode.window.showInformationMessage(`No process has been tracked yet, so there is no ledger: ${file} is written when the first one starts.`);
      return;
    }
    const editor = await vscode.window.showTextDocument(vscode.Uri.file(file), { preview: true });
    const end = editor.document.lineAt(Math.max(0, editor.document.lineCount - 1)).range.end;
    editor.selection = new vscode.Selection(end, end);
    editor.revealRange(new vscode.Range(end, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }

  private report(report: { message: string; partial: boolean }): void {
    if (report.partial) void showPartialFailure(this.deps, report.message);
    else void vscode.window.showInformationMessage(report.message);
  }
}

function isNotOwned(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === BridgeErrorCode.ProcessNotOwned;
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "python3 (pid 1234, :8000) in terminal dev — python3 -m http.server" per orphan. */
function confirmationDetail(orphans: readonly TrackedProcess[]): string {
  const lines = orphans.slice(0, CONFIRM_MAX_LISTED).map((p) => `${processPhrase(p)}, started in terminal "${p.terminalName}"`);
  if (orphans.length > CONFIRM_MAX_LISTED) lines.push(`… and ${orphans.length - CONFIRM_MAX_LISTED} more`);
  return `An earlier window left these running:\n${lines.join('\n')}\n\nEach is asked to exit first, then forced if it does not, with its child processes.`;
}
