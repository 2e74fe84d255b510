/**
 * Entry point of the stdio MCP server (dist/mcp-server.js). VS Code starts it with the bridge in
 * its environment; any other MCP client starts `node dist/mcp-server.js` in the workspace folder
 * (or with --workspace DIR) and the server finds the window through .devtools/bridge.json.
 * stdout carries the MCP protocol only: every log line goes to stderr.
 */
import path from 'node:path';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createStreamLogger, parseLogLevel } from '../../common/src/logger';
import { BRIDGE_ENV } from '../../common/src/bridgeDiscovery';
import { createServer } from './server';

/** package.json's version, put in by the build (esbuild.mjs defines it for this bundle). */
declare const __SHEPHERD_VERSION__: string;
const version = __SHEPHERD_VERSION__;

const usage = `Terminal Shepherd MCP server ${version}

Usage: node mcp-server.js [--workspace DIR] [--log-level trace|debug|info|warn|error]

Speaks MCP over stdio. It reaches the VS Code window that has the workspace open through the
bridge given in ${BRIDGE_ENV.endpoint}/${BRIDGE_ENV.token} (set by VS Code), or else through
DIR/.devtools/bridge.json (DIR: --workspace, ${BRIDGE_ENV.workspace}, or the current directory).
`;

interface Args {
  workspace: string;
  logLevel: string | undefined;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { workspace: process.env[BRIDGE_ENV.workspace] || process.cwd(), logLevel: process.env.TERMINAL_SHEPHERD_LOG_LEVEL };
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
  logger.info(`ready (workspace ${args.workspace}${endpoint ? ', bridge from VS Code' : ''})`);
}

void main().catch((error: unknown) => {
  process.stderr.write(`terminal-shepherd-mcp: fatal: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
