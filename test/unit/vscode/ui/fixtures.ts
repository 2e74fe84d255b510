/** Test data for the UI models. */
import type { TerminalInfo, TrackedProcess } from '../../../../common/src/protocol';

export function proc(pid: number, over: Partial<TrackedProcess> = {}): TrackedProcess {
  return {
    pid,
    name: `proc${pid}`,
    commandLine: `proc${pid} --flag`,
    parentPid: 1,
    terminalName: 'default',
    startedAt: '2025-01-01T09:57:00.000Z',
    status: 'running',
    ports: [],
    ...over,
  };
}

export function terminal(name: string, pid: number, over: Partial<TerminalInfo> = {}): TerminalInfo {
  return { name, pid, busy: false, shellIntegration: true, shell: 'bash', strategy: 'vscode', ...over };
}
