/** What a process or a tree costs, said the same way by the MCP server's text and the extension's views. */

export interface ProcessCost {
  readonly cpuPercent?: number;
  readonly rssBytes?: number;
  readonly waitingForTerminal?: boolean;
}

/**
 * "96% CPU, 1.2 GB" (and ", waiting for terminal input"); empty when nothing was measured. The
 * views join with " · " (their rows already use commas between fields).
 */
export function formatCost(cost: ProcessCost, separator = ', '): string {
  const parts: string[] = [];
  if (cost.cpuPercent !== undefined) parts.push(`${Math.round(cost.cpuPercent)}% CPU`);
  if (cost.rssBytes !== undefined) parts.push(formatBytes(cost.rssBytes));
  if (cost.waitingForTerminal) parts.push('waiting for terminal input');
  return parts.join(separator);
}

export function formatBytes(bytes: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 10 || unit === 0 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}
