import assert from 'node:assert/strict';
import { changeDirectoryCommand, isControlKey } from '../../../extension/src/core/terminals/shellCommands';

describe('shell commands', () => {
  it('quotes a directory for POSIX shells, including single quotes', () => {
    assert.equal(changeDirectoryCommand('bash', "/tmp/it's here"), `cd -- '/tmp/it'\\''s here'`);
    assert.equal(changeDirectoryCommand('unknown', '/a b'), "cd -- '/a b'");
  });
  it('uses Set-Location for PowerShell', () => {
    assert.equal(changeDirectoryCommand('pwsh', "C:\\it's"), "Set-Location -LiteralPath 'C:\\it''s'");
  });
  it('tells keys from text', () => {
    assert.equal(isControlKey('\u0003'), true);
    assert.equal(isControlKey('\u001b'), true);
    assert.equal(isControlKey('y'), false);
    assert.equal(isControlKey('\r'), false);
    assert.equal(isControlKey(''), false);
  });
});
