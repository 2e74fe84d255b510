/** The settings table is the one source: package.json contributes exactly it, and the readers apply its ranges. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { limits } from '../../../common/src/protocol';
import { SETTINGS_SECTION, clampSetting, enumSetting, settingsTable } from '../../../common/src/settings';
import { defaultLedgerSettings } from '../../../extension/src/core/ledger/api';
import { defaultSettings } from '../../../extension/src/core/settings';

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { configuration: { properties: Record<string, Record<string, unknown>> } };
};
const contributed = manifest.contributes.configuration.properties;

describe('settings table', () => {
  it('package.json contributes every setting of the table, and nothing else', () => {
    assert.deepEqual(
      Object.keys(contributed).sort(),
      Object.keys(settingsTable).map((key) => `${SETTINGS_SECTION}.${key}`).sort(),
    );
  });

  for (const [key, spec] of Object.entries(settingsTable)) {
    it(`${key}: package.json says what the table says (type, default, range, values, scope, description)`, () => {
      assert.deepEqual(contributed[`${SETTINGS_SECTION}.${key}`], JSON.parse(JSON.stringify(spec)));
    });
  }

  it('numbers have a default inside their range', () => {
    for (const [key, spec] of Object.entries(settingsTable)) {
      if (spec.type !== 'number') continue;
      assert.ok(spec.minimum <= spec.default && spec.default <= spec.maximum, key);
    }
  });

  it('the core defaults, the ledger defaults and the protocol limits come from the table', () => {
    assert.equal(defaultSettings.gracePeriodMs, settingsTable['run.gracePeriodMs'].default);
    assert.equal(defaultSettings.defaultTimeoutMs, settingsTable['run.defaultTimeoutMs'].default);
    assert.equal(defaultSettings.outputLimitChars, undefined, "output.limitChars unset: each client's limit, else the table's default (output/outputLimit.ts)");
    assert.equal(defaultSettings.pollIntervalMs, settingsTable['processes.pollIntervalMs'].default);
    assert.equal(defaultLedgerSettings.pollIntervalMs, settingsTable['processes.pollIntervalMs'].default);
    assert.equal(defaultSettings.orphanPolicy, settingsTable['processes.orphanPolicy'].default);
    const timeout = settingsTable['run.defaultTimeoutMs'];
    assert.deepEqual([limits.minTimeoutMs, limits.defaultTimeoutMs, limits.maxTimeoutMs], [timeout.minimum, timeout.default, timeout.maximum]);
  });

  it('clampSetting rounds and holds a number to the range; anything else is the default', () => {
    const poll = settingsTable['processes.pollIntervalMs'];
    assert.equal(clampSetting(poll, 50), poll.minimum);
    assert.equal(clampSetting(poll, 10_000_000), poll.maximum);
    assert.equal(clampSetting(poll, 1234.6), 1235);
    for (const bad of ['500', null, undefined, Number.NaN, Number.POSITIVE_INFINITY, {}]) {
      assert.equal(clampSetting(poll, bad), poll.default, String(bad));
    }
  });

  it('enumSetting accepts only the table\'s values', () => {
    const policy = settingsTable['processes.orphanPolicy'];
    assert.equal(enumSetting(policy, 'kill'), 'kill');
    assert.equal(enumSetting(policy, 'KILL'), policy.default);
    assert.equal(enumSetting(policy, undefined), policy.default);
  });
});
