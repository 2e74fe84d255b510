/**
 * "Terminal Shepherd: Connect an MCP Client…": pick a client (the ones this machine shows signs of
 * first, then the rest, then plain JSON for any other), pick user or project scope, and its own
 * configuration file gets Terminal Shepherd's entry, merged: other servers and settings stay.
 * A file inside the workspace is written and opened; a file elsewhere (the home folder) is shown
 * as a diff first and written only when the person confirms. Called with { client, scope } (a
 * walkthrough link, a test), it skips the picks it was given.
 */
import { accessSync, constants, existsSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import type { Logger } from '../../../common/src/logger';
import { launcherPath, shepherdHome } from '../../../common/src/shepherdHome';
import { ConfigEditError } from '../clients/configEdits';
import { applyConnect, planConnect, type ConnectPlan } from '../clients/connect';
import { MCP_CLIENTS, detectClient, genericJson, type ClientContext, type ClientId, type McpClientSpec, type Scope } from '../clients/mcpClients';
import { COMMANDS } from './ui/ids';
import { userAction } from './ui/userFeedback';

export interface ConnectDependencies {
  readonly logger: Logger & { show(): void };
  readonly version: string;
  readonly workspaceFolder: string | undefined;
  /** This extension's global storage; its parent holds other extensions' (Cline's settings). */
  readonly globalStorage: string;
}

export interface ConnectArgs {
  readonly client?: ClientId | 'json';
  readonly scope?: Scope;
}

const PREVIEW_SCHEME = 'terminal-shepherd-config';
const WRITE = 'Write';
const COPY_ENTRY = 'Copy Entry';
const OPEN_FILE = 'Open File';

/** Previews of configuration files (the diff's two sides), by URI path. */
class Previews implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 0;
  show(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/${this.next++}/${name}` });
    this.texts.set(uri.path, text);
    return uri;
  }
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? '';
  }
}

function onPath(command: string): boolean {
  const names = process.platform === 'win32' ? [`${command}.exe`, `${command}.cmd`, `${command}.bat`] : [command];
  return (process.env.PATH ?? '').split(path.delimiter).some((dir) =>
    names.some((name) => {
      try {
        const file = path.join(dir, name);
        accessSync(file, constants.X_OK);
        return statSync(file).isFile();
      } catch {
        return false;
      }
    }),
  );
}

const tilde = (file: string): string => {
  const relative = path.relative(os.homedir(), file);
  return relative.startsWith('..') || path.isAbsolute(relative) ? file : `~${path.sep}${relative}`;
};

/** Where the clients' files are for this window (read again at each use: the environment may change). */
export function clientContext(deps: Omit<ConnectDependencies, 'logger'>): ClientContext {
  return {
    home: os.homedir(),
    platform: process.platform,
    env: process.env,
    launcher: launcherPath(shepherdHome()),
    ...(deps.workspaceFolder ? { workspaceFolder: deps.workspaceFolder } : {}),
    globalStorage: path.dirname(deps.globalStorage),
    version: deps.version,
  };
}

export function registerConnectClient(deps: ConnectDependencies): vscode.Disposable {
  const previews = new Previews();
  const context = (): ClientContext => clientContext(deps);

  async function pickClient(): Promise<McpClientSpec | 'json' | undefined> {
    const ctx = context();
    const probe = { onPath, exists: existsSync, extensionInstalled: (id: string) => vscode.extensions.getExtension(id) !== undefined };
    const found = MCP_CLIENTS.map((spec) => ({ spec, sign: detectClient(spec, ctx.home, probe) }));
    type Item = vscode.QuickPickItem & { value?: McpClientSpec | 'json' };
    const item = (spec: McpClientSpec, sign: string | undefined): Item => ({ label: spec.label, description: sign ? `found: ${sign}` : undefined, detail: `Check with: ${spec.check}`, value: spec });
    const separator = (label: string): Item => ({ label, kind: vscode.QuickPickItemKind.Separator });
    const detected = found.filter((f) => f.sign);
    const others = found.filter((f) => !f.sign);
    const items: Item[] = [
      ...(detected.length > 0 ? [separator('Found on this machine'), ...detected.map((f) => item(f.spec, f.sign))] : []),
      ...(others.length > 0 ? [separator('Other clients'), ...others.map((f) => item(f.spec, undefined))] : []),
      separator(''),
      { label: 'Any other MCP client (JSON)', detail: 'The usual mcpServers entry, to paste into its configuration', value: 'json' },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: 'Connect an MCP Client to Terminal Shepherd', placeHolder: 'Which client should get Terminal Shepherd\'s tools?' });
    return picked?.value;
  }

  async function pickScope(spec: McpClientSpec): Promise<Scope | undefined> {
    const scopes = (Object.keys(spec.scopes) as Scope[]).filter((s) => s === 'user' || context().workspaceFolder);
    if (scopes.length <= 1) return scopes[0];
    const ctx = context();
    const items = scopes.map((scope) => ({
      label: scope === 'user' ? 'User: every folder you open' : 'Project: this folder, for everyone who clones it',
      description: tilde(spec.scopes[scope]!(ctx).file),
      scope,
    }));
    return (await vscode.window.showQuickPick(items, { title: `Connect ${spec.label}`, placeHolder: 'Where should the entry go?' }))?.scope;
  }

  async function showJson(): Promise<void> {
    const text = genericJson(context());
    await vscode.env.clipboard.writeText(text);
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ language: 'json', content: `${text}\n` }));
    void vscode.window.showInformationMessage(
      `Copied. Add this to your MCP client's configuration (its "mcpServers" or equivalent). It starts ${tilde(context().launcher)}, which Terminal Shepherd keeps pointing at its newest version; the server finds this window from the client's working directory (or --workspace DIR).`,
    );
  }

  /** Shows a file outside the workspace as a diff and asks; true when the person said Write. */
  async function confirm(plan: ConnectPlan): Promise<boolean> {
    const name = path.basename(plan.file);
    const left = previews.show(name, plan.before ?? '');
    const right = previews.show(name, plan.after);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${tilde(plan.file)}: Terminal Shepherd's entry (${plan.before === undefined ? 'new file' : 'merged'})`, { preview: true });
    const choice = await vscode.window.showInformationMessage(
      `Write Terminal Shepherd's entry to ${tilde(plan.file)}?`,
      { modal: true, detail: `${plan.spec.label} reads this file. Only the "terminal-shepherd" entry changes; every other server and setting in it stays as it is (see the diff).` },
      WRITE,
      COPY_ENTRY,
    );
    if (choice === COPY_ENTRY) await vscode.env.clipboard.writeText(plan.entry);
    return choice === WRITE;
  }

  async function connect(spec: McpClientSpec, scope: Scope): Promise<void> {
    let plan: ConnectPlan;
    try {
      plan = await planConnect(spec, scope, context());
    } catch (error) {
      if (!(error instanceof ConfigEditError)) throw error;
      const target = spec.scopes[scope]!(context());
      deps.logger.warn(`connect ${spec.id}: ${target.file}: ${error.message}`);
      // Not awaited: a notification's promise settles only when the person dismisses it.
      void Promise.resolve(vscode.window.showErrorMessage(`Could not add Terminal Shepherd to ${tilde(target.file)}: ${error.message}. Fix the file, or add the entry by hand.`, COPY_ENTRY)).then((choice) =>
        choice === COPY_ENTRY ? vscode.env.clipboard.writeText(target.entry) : undefined,
      );
      return;
    }
    const check = `Check with: ${spec.check}.${spec.note ? ` ${spec.note}` : ''}`;
    if (plan.unchanged) {
      void vscode.window.showInformationMessage(`${spec.label} is already connected: ${tilde(plan.file)} has Terminal Shepherd's entry. ${check}`);
      return;
    }
    if (plan.outsideWorkspace && !(await confirm(plan))) {
      deps.logger.info(`connect ${spec.id}: ${plan.file} not written (the person declined)`);
      return;
    }
    await applyConnect(plan);
    deps.logger.info(`connect ${spec.id} (${scope}): wrote Terminal Shepherd's entry to ${plan.file}`);
    if (!plan.outsideWorkspace) await vscode.window.showTextDocument(vscode.Uri.file(plan.file), { preview: true });
    void Promise.resolve(vscode.window.showInformationMessage(`${spec.label} connected: Terminal Shepherd's entry is in ${tilde(plan.file)}. ${check}`, OPEN_FILE)).then((choice) =>
      choice === OPEN_FILE ? vscode.window.showTextDocument(vscode.Uri.file(plan.file)) : undefined,
    );
  }

  async function run(args: ConnectArgs = {}): Promise<void> {
    const chosen = args.client === 'json' ? 'json' : args.client ? MCP_CLIENTS.find((c) => c.id === args.client) : await pickClient();
    if (!chosen) return;
    if (chosen === 'json') return showJson();
    const scope = args.scope && chosen.scopes[args.scope] ? args.scope : await pickScope(chosen);
    if (!scope) return;
    await connect(chosen, scope);
  }

  return vscode.Disposable.from(
    vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, previews),
    vscode.commands.registerCommand(COMMANDS.connectClient, userAction(deps, 'connect the MCP client', (args?: ConnectArgs) => run(args ?? {}))),
  );
}
