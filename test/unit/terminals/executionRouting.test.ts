import assert from 'node:assert/strict';
import { showsLine } from '../../../extension/src/core/terminals/executionRouting';

describe('showsLine', () => {
  it("takes VS Code's report of the first simple command (bash with HISTCONTROL=ignorespace) as the line sent", () => {
    assert.ok(showsLine('seq 1 4000', " seq 1 4000; sh -c 'sleep 1'; cat .env"));
    assert.ok(showsLine('make', ' make && make test'));
    assert.ok(showsLine('git log', ' git log | head'));
    assert.ok(showsLine(' echo hi', ' echo hi'));
    // As bash 5.2 rebuilds $BASH_COMMAND (checked with a DEBUG trap): the soak's lines among them.
    assert.ok(showsLine('sleep 600', ' sleep 600 &'));
    assert.ok(showsLine('for i in $(seq 1 20)', ' for i in $(seq 1 20); do echo cc3-0-$i; done'));
    assert.ok(showsLine('true', ' if true; then :; fi'));
    assert.ok(showsLine('false', ' ! false'));
    assert.ok(showsLine('npm run build 2>&1', ' npm run   build 2>&1 | tail'));
    assert.ok(showsLine('[[ -d x ]]', ' [[ -d x ]] || true'));
    assert.ok(showsLine('cd /tmp', ' (cd /tmp && true)'));
  });

  it('not a different command, nor a prefix that ends inside a word or an argument', () => {
    assert.ok(!showsLine('seq 1 40', ' seq 1 4000; echo'));
    assert.ok(!showsLine('echo', ' echo hi; ls'));
    assert.ok(!showsLine('ls', ' make; ls'));
    assert.ok(!showsLine('', ' make'));
    assert.ok(!showsLine('sleep 60', ' sleep 600 &'));
    assert.ok(!showsLine('true', ' if true x; then :; fi'));
  });
});
