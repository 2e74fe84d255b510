import assert from 'node:assert/strict';
import { describeZodError, runParamsSchema } from '../../common/src/protocol';

describe('protocol schemas', () => {
  it('rejects an empty command with a readable message', () => {
    const r = runParamsSchema.safeParse({ command: '   ' });
    assert.equal(r.success, false);
    assert.match(describeZodError(r.error!), /command: command must not be empty/);
  });
  it('rejects a timeout out of range and says how to do long work', () => {
    const r = runParamsSchema.safeParse({ command: 'ls', timeoutMs: 10_000_000 });
    assert.equal(r.success, false);
    assert.match(describeZodError(r.error!), /at most 3600000 ms.*background/);
  });
  it('accepts a minimal run', () => {
    assert.deepEqual(runParamsSchema.parse({ command: 'ls' }), { command: 'ls' });
  });
});
