/**
 * What a sandboxed command was denied, read from its output: the runtime's own report (the block
 * sandboxRunner.ts prints after the command), the "Read-only file system" and "Operation not
 * permitted" lines a refused write or read prints (what VS Code's sandbox output analyzer reads),
 * and, with the network closed, the lines a refused connection prints.
 */

export interface SandboxDenials {
  /** Paths a read or write was refused on. */
  readonly paths: readonly string[];
  /** The network was closed and the command tried to reach it (hosts as far as the output names them). */
  readonly network: boolean;
  readonly hosts: readonly string[];
}

const FILE_DENIAL = /read-only file system|operation not permitted|EROFS|EPERM/i;
/** A path in a denial line: quoted after a verb (`cannot touch '/x'`, node's `open '/x'`), or between colons (`bash: /x: Read-only…`). */
const QUOTED_PATH = /['"‘`](\/[^'"’`]*)['"’`]/;
const COLON_PATH = /(?:^|:\s)(\/[^:\s]+):\s/;
const VIOLATION = /^deny\s+(\S+)\s+(.+)$/;
const NETWORK_DENIAL: readonly RegExp[] = [
  /could not resolve host:?\s*([\w.-]+)/i,
  /getaddrinfo\s+(?:EAI_AGAIN|ENOTFOUND)\s+([\w.-]+)/i,
  /failed to connect to ([\w.:-]+?) port/i,
  /temporary failure in name resolution/i,
  /network is unreachable/i,
  /connect ECONNREFUSED ([\d.:]+)/i,
];

export function sandboxDenials(output: string, networkClosed: boolean): SandboxDenials | undefined {
  const paths = new Set<string>();
  const hosts = new Set<string>();
  let network = false;
  let inReport = false;
  for (const raw of output.split('\n')) {
    const line = raw.trim();
    if (line === '<sandbox_violations>') inReport = true;
    else if (line === '</sandbox_violations>') inReport = false;
    else if (inReport) {
      const violation = VIOLATION.exec(line);
      // Devices are what a shell's own start-up reaches for (bash opens /dev/console), never what a command was denied.
      if (violation?.[2]?.startsWith('/dev/') || violation?.[2]?.startsWith('/proc/')) continue;
      if (violation?.[2]?.startsWith('/')) paths.add(violation[2]);
      else if (violation?.[2]) {
        network = true;
        hosts.add(violation[2]);
      }
    } else if (FILE_DENIAL.test(line)) {
      const path = QUOTED_PATH.exec(line)?.[1] ?? COLON_PATH.exec(line)?.[1];
      if (path) paths.add(path);
    } else if (networkClosed) {
      for (const pattern of NETWORK_DENIAL) {
        const match = pattern.exec(line);
        if (!match) continue;
        network = true;
        if (match[1]) hosts.add(match[1]);
        break;
      }
    }
  }
  if (paths.size === 0 && !network) return undefined;
  return { paths: [...paths], network, hosts: [...hosts] };
}
