/**
 * The most characters of output a run's result carries: the person's own
 * terminalShepherd.output.limitChars when they set one; else the limit the MCP server sent for its
 * client (mcp-server/src/bridge/clientResultBudgets.ts: Copilot in VS Code's agent host 2,000, the
 * Copilot CLI 7,000, as their runtime passes only so much whole); else the setting's default.
 */
import { clampSetting, settingsTable } from '../../../../common/src/settings';

export function runOutputLimit(personal: number | undefined, client: number | undefined): number {
  return clampSetting(settingsTable['output.limitChars'], personal ?? client);
}
