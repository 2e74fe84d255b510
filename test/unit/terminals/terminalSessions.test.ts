import assert from 'node:assert/strict';
import { showsLine } from '../../../extension/src/core/terminals/terminalSessions';

describe('showsLine', () => {
  it("takes VS Code's report of the first simple command (bash with HISTCONTROL=ignorespace) as the line sent", () => {
    assert.ok(showsLine('seq 1 4000', " seq 1 4000; sh -c 'sleep 1'; cat .env"));
    assert.ok(showsLine('make', ' make && make test'));
    assert.ok(showsLine('git log', ' git log | head'));
    assert.ok(showsLine(' echo hi', ' echo hi'));
  });

  it('not a different command, nor a prefix that ends inside a word or an argument', () => {
    assert.ok(!showsLine('seq 1 40', ' seq 1 4000; echo'));
    assert.ok(!showsLine('echo', ' echo hi; ls'));
    assert.ok(!showsLine('ls', ' make; ls'));
    assert.ok(!showsLine('', ' make'));
  });
});
