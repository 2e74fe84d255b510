/**
 * Entry point of the stdio MCP server (dist/mcp-server.js). VS Code starts it with the bridge in
 * its environment; any other MCP client starts it through the launcher in ~/.terminal-shepherd/bin
 * in its working directory (or with --workspace DIR) and the server finds the window through
 * .devtools/bridge.json (bridge/windowDiscovery.ts says where it looks). stdout carries the MCP protocol
 * only: every log line goes to stderr.
 */
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createStreamLogger, parseLogLevel } from '../../common/src/logger';
import { BRIDGE_ENV } from '../../common/src/bridgeDiscovery';
import { shepherdHome } from '../../common/src/shepherdHome';
import { processAncestors } from './bridge/ancestry';
import { clientProcess } from './bridge/clientProcess';
import { createServer } from './server';

/** package.json's version, put in by the build (esbuild.mjs defines it for this bundle). */
declare const __SHEPHERD_VERSION__: string;
const version = __SHEPHERD_VERSION__;

const usage = `Terminal Shepherd MCP server ${version}

Usage: node mcp-server.js [--workspace DIR] [--log-level trace|debug|info|warn|error]

Speaks MCP over stdio. It reaches the VS Code window that has the workspace open through the
bridge given in ${BRIDGE_ENV.endpoint}/${BRIDGE_ENV.token} (set by VS Code), or else the window
whose extension host started it, or else DIR/.devtools/bridge.json (DIR: --workspace, or
${BRIDGE_ENV.workspace}), or else .devtools/bridge.json in the current directory or the nearest
folder above it that has one.
`;

interface Args {
  workspace: string;
  /** Given by --workspace or the environment: that folder only, no search upwards. */
  explicit: boolean;
  logLevel: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const fromEnv = process.env[BRIDGE_ENV.workspace];
  const args: Args = { workspace: fromEnv || process.cwd(), explicit: Boolean(fromEnv), logLevel: process.env.TERMINAL_SHEPHERD_LOG_LEVEL };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--workspace') args.workspace = value();
    else if (arg.startsWith('--workspace=')) args.workspace = arg.slice('--workspace='.length);
    else if (arg === '--log-level') args.logLevel = value();
    else if (arg === '--help' || arg === '-h') {
      process.stdout.write(usage);
      process.exit(0);
    } else if (arg === '--version') {
      process.stdout.write(`${version}\n`);
      process.exit(0);
    } else throw new Error(`unknown argument ${arg}`);
    if (arg.startsWith('--workspace')) args.explicit = true;
  }
  args.workspace = path.resolve(args.workspace);
  return args;
}

async function main(): Promise<void> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n\n${usage}`);
    process.exit(2);
  }
  const logger = createStreamLogger((line) => process.stderr.write(line), { level: parseLogLevel(args.logLevel, 'info'), prefix: 'terminal-shepherd-mcp' });
  const endpoint = process.env[BRIDGE_ENV.endpoint];
  const token = process.env[BRIDGE_ENV.token];
  const { server, dispose } = createServer({
    version,
    logger,
    workspaceFolder: args.workspace,
    discovery: { searchParents: !args.explicit, shepherdRoot: shepherdHome(), ancestors: () => processAncestors() },
    clientProcess: () => clientProcess(),
    ...(endpoint && token ? { target: { endpoint, token } } : {}),
  });
  let stopping = false;
  const stop = (reason: string): void => {
    if (stopping) return;
    stopping = true;
    logger.info(`stopping (${reason})`);
    void dispose().finally(() => process.exit(0));
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.stdin.on('close', () => stop('stdin closed'));
  await server.connect(new StdioServerTransport());
  logger.info(`ready (workspace ${args.workspace}${args.explicit ? '' : ' or the nearest folder above it with a window'}${endpoint ? ', bridge from VS Code' : ''})`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`terminal-shepherd-mcp: fatal: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
