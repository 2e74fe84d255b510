/**
 * How much of a run's output the clients that run GitHub Copilot's runtime pass to their model
 * whole, each figure with its source (docs/clients.md, "Results over 8 KB"). The server sends the
 * client's output limit with each call (meta.clientOutputLimitChars); the window uses it unless the
 * person set terminalShepherd.output.limitChars themselves. Any other client gets the setting's
 * default (16,000 characters): it hands its model one form of the result, the text or the
 * structured content, and takes that much whole.
 *
 * The Copilot runtime hands the model the text AND the structured content's JSON (each carries the
 * output) and moves a result past a byte limit into a file, giving the model a 500-character
 * preview. It names itself "copilot-cli" both as the Copilot CLI and inside VS Code's agent host
 * (the harness starts this server itself; its calls never come through VS Code's own MCP client),
 * so the agent host is told apart by the environment VS Code starts it with, which the runtime
 * passes on to the servers it starts. Results are also cut in bytes, to `resultBytes`
 * (tools/support/resultBudget.ts), as characters of two or three bytes can take an output of
 * `outputLimitChars` past it.
 */
import type { ClientInfo } from './clientDeadlines';

export interface ResultBudget {
  /** The most characters of output a result carries for this client (unless the person set their own). */
  readonly outputLimitChars: number;
  /** The most UTF-8 bytes a result may take as the client counts it (text, a blank line, the structured content's JSON). */
  readonly resultBytes: number;
  readonly budgetSource: string;
}

interface KnownResultBudget {
  readonly name: RegExp;
  /** Where the same client name means another harness: its environment says which. */
  readonly startedBy?: (env: NodeJS.ProcessEnv) => boolean;
  readonly budget: ResultBudget;
}

/** What a client's harness may add around a result before it measures it. */
const MARGIN_BYTES = 1024;

/**
 * VS Code starts its agent host with AI_AGENT=github_copilot_vscode_agent and
 * VSCODE_AGENT_HOST_LAUNCH_KIND (code-server 4.139.1, out/server-main.js); the Copilot CLI sets neither.
 */
const inVsCodeAgentHost = (env: NodeJS.ProcessEnv): boolean => env.AI_AGENT === 'github_copilot_vscode_agent' || env.VSCODE_AGENT_HOST_LAUNCH_KIND !== undefined;

export const KNOWN_RESULT_BUDGETS: readonly KnownResultBudget[] = [
  {
    // VS Code's agent host (its runtime 1.0.85 sends "copilot-cli"). A long result (`seq 1 200000`,
    // a dev server in the reminder; test/integration/mcpToolsResultSize.test.ts): 5.4 KB.
    name: /^copilot-cli$/,
    startedBy: inVsCodeAgentHost,
    budget: {
      outputLimitChars: 2000,
      resultBytes: 8 * 1024 - MARGIN_BYTES,
      budgetSource: "VS Code's agent host starts its Copilot harness with largeOutput.maxSizeBytes 8 KiB (out/vs/platform/agentHost/node/agentHostMain.js, VS Code 1.139)",
    },
  },
  {
    // The Copilot CLI (@github/copilot 1.0.102 sends "copilot-cli"). The same long result: 16.4 KB
    // (at 8,000 characters: 18.6 KB, too near).
    name: /^copilot-cli$/,
    budget: {
      outputLimitChars: 7000,
      resultBytes: 20 * 1024 - MARGIN_BYTES,
      budgetSource: "the Copilot runtime's default large-output threshold, 20 KiB (largeOutputDefaultThreshold, @github/copilot 1.0.102)",
    },
  },
];

/** The budget of a client the server knows, started by whom `env` says; undefined for any other (the window's default then applies). */
export function knownResultBudget(client: ClientInfo | undefined, env: NodeJS.ProcessEnv): ResultBudget | undefined {
  return client && KNOWN_RESULT_BUDGETS.find((c) => c.name.test(client.name) && (c.startedBy?.(env) ?? true))?.budget;
}
