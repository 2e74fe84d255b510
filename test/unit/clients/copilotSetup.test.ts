import assert from 'node:assert/strict';
import { copilotSetupStep } from '../../../extension/src/clients/copilotSetup';

describe('copilotSetupStep: what Copilot needs before agent mode offers the tools', () => {
  const defaults = { mcpAccess: 'all', mcpAutostart: 'newAndOutdated', aiFeaturesDisabled: false };

  it("VS Code's defaults: nothing to do, the first agent-mode request starts the server", () => {
    const step = copilotSetupStep(defaults);
    assert.equal(step.kind, 'none');
    assert.match(step.kind === 'none' ? step.reason : '', /first agent-mode request .*newAndOutdated/);
  });

  it('autostart "onlyNew" still starts a server that never ran: nothing to do', () => {
    assert.equal(copilotSetupStep({ ...defaults, mcpAutostart: 'onlyNew' }).kind, 'none');
  });

  it('settings never read (undefined) count as the defaults', () => {
    assert.equal(copilotSetupStep({ mcpAccess: undefined, mcpAutostart: undefined, aiFeaturesDisabled: undefined }).kind, 'none');
  });

  it('autostart "never": the user starts the server, and the message names the setting', () => {
    const step = copilotSetupStep({ ...defaults, mcpAutostart: 'never' });
    assert.equal(step.kind, 'startServer');
    assert.match(step.kind === 'startServer' ? step.message : '', /chat\.mcp\.autostart is "never".*Start it now\?/);
  });

  it('MCP turned off: only the user or an admin can allow it; that comes before autostart', () => {
    const step = copilotSetupStep({ ...defaults, mcpAccess: 'none', mcpAutostart: 'never' });
    assert.equal(step.kind, 'enableMcp');
    assert.match(step.kind === 'enableMcp' ? step.message : '', /chat\.mcp\.access is "none"/);
  });

  it('chat turned off altogether: no notification for someone who does not use it', () => {
    assert.equal(copilotSetupStep({ ...defaults, mcpAccess: 'none', aiFeaturesDisabled: true }).kind, 'none');
  });
});
