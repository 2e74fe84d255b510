import assert from 'node:assert/strict';
import { redactingLogger } from '../../../extension/src/core/secrets/redactingLogger';
import { marker, Redactor } from '../../../extension/src/core/secrets/redaction';
import { collectingLogger } from '../../support/collectingLogger';

describe('redactingLogger', () => {
  const token = `glpat-${'Qw3'.repeat(8)}`;

  it('takes secrets out of messages, string arguments, errors and objects at every level', () => {
    const inner = collectingLogger();
    const log = redactingLogger(inner, () => new Redactor());
    log.info(`run started: git push https://oauth2:${token}@gitlab.com/x.git`);
    log.debug('sent', `token ${token}`);
    log.warn('failed', new Error(`bad credentials ${token}`));
    log.error(new Error(`boom ${token}`), { cmd: `echo ${token}` });
    const text = inner.lines.map((line) => line.text).join('\n');
    assert.ok(!text.includes(token), text);
    assert.equal(text.split(marker('GitLab token')).length - 1, 5, text);
    assert.deepEqual(inner.lines.map((line) => line.level), ['info', 'debug', 'warn', 'error']);
  });

  it('leaves everything as it is when redaction is off', () => {
    const inner = collectingLogger();
    redactingLogger(inner, () => new Redactor({ enabled: false })).info(`t ${token}`);
    assert.equal(inner.lines[0]!.text, `t ${token}`);
  });
});
