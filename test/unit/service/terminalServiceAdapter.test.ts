/** The adapter turns TerminalService events into ledger calls. */
import assert from 'node:assert/strict';
import type { KillResult } from '../../../common/src/protocol';
import { attachToTerminalService, type TerminalEventSink } from '../../../extension/src/core/service/terminalServiceAdapter';
import type { TerminalSessionEvent, TerminalSessionView } from '../../../extension/src/core/terminals/terminalSession';
import { collectingLogger } from '../../support/collectingLogger';

interface FakeRun {
  active: boolean;
  launch: { agentSession?: { client: string; id: string; from: string }; sandbox?: { mode: 'vscode' | 'confined'; network: boolean } };
}

const chat = { client: 'Visual Studio Code', id: 'conv-1', from: '_meta.vscode.conversationId' };

function session(name: string, shellPid: number | undefined, currentRun?: FakeRun): TerminalSessionView {
  return { name, shellPid, currentRun, closed: false } as unknown as TerminalSessionView;
}

function event(kind: TerminalSessionEvent['kind'], s: TerminalSessionView, run?: FakeRun): TerminalSessionEvent {
  return { kind, session: s, ...(run ? { run } : {}) } as unknown as TerminalSessionEvent;
}

describe('attachToTerminalService', () => {
  function setup(existing: TerminalSessionView[] = [], closeResult: Promise<KillResult> = Promise.resolve({ killed: [], failed: [] })) {
    const calls: string[] = [];
    const sink: TerminalEventSink = {
      terminalOpened: (name, pid) => calls.push(`opened ${name} ${pid}`),
      runStarted: (name, agentSession, sandbox) => calls.push(`runStarted ${name}${agentSession ? ` ${agentSession.id}` : ''}${sandbox ? ` ${sandbox.mode}/${sandbox.network}` : ''}`),
      runEnded: (name) => calls.push(`runEnded ${name}`),
      terminalClosed: (name) => {
        calls.push(`closed ${name}`);
        return closeResult;
      },
    };
    let listener: ((e: TerminalSessionEvent) => void) | undefined;
    const logger = collectingLogger();
    const attachment = attachToTerminalService(
      sink,
      {
        onDidChange: (l) => {
          listener = l;
          return { dispose: () => (listener = undefined) };
        },
        sessionViews: () => existing,
      },
      logger,
    );
    return { calls, logger, attachment, emit: (e: TerminalSessionEvent) => listener?.(e), subscribed: () => listener !== undefined };
  }

  it('picks up sessions that exist already, with their running command', () => {
    const { calls } = setup([session('a', 10, { active: true, launch: { agentSession: chat } }), session('b', 11, { active: false, launch: {} })]);
    assert.deepEqual(calls, ['opened a 10', 'runStarted a conv-1', 'opened b 11']);
  });

  it('maps session and run events (a run with its agent session), ignoring news of a replaced run', () => {
    const { calls, emit } = setup();
    const run: FakeRun = { active: true, launch: { agentSession: chat } };
    const s = session('dev', 42, run);
    emit(event('sessionCreated', session('dev', 42)));
    emit(event('runStarted', s, run));
    emit(event('runStateChanged', s, run)); // waiting_for_input: still active
    run.active = false;
    emit(event('runStateChanged', s, run));
    emit(event('runStateChanged', s, { active: false, launch: {} })); // an old run, not the current one
    emit(event('sessionClosed', s));
    assert.deepEqual(calls, ['opened dev 42', 'opened dev 42', 'runStarted dev conv-1', 'runStarted dev conv-1', 'runEnded dev', 'closed dev']);
  });

  it('hands the ledger the sandbox a run runs in', () => {
    const { calls, emit } = setup([session('a', 10, { active: true, launch: { sandbox: { mode: 'vscode', network: false } } })]);
    const run: FakeRun = { active: true, launch: { sandbox: { mode: 'confined', network: true } } };
    emit(event('runStarted', session('a', 10, run), run));
    assert.deepEqual(calls, ['opened a 10', 'runStarted a vscode/false', 'opened a 10', 'runStarted a confined/true']);
  });

  it('logs a failed cleanup instead of throwing, and stops listening when disposed', async () => {
    const { emit, logger, attachment, subscribed } = setup([], Promise.reject(new Error('no monitor')));
    emit(event('sessionClosed', session('x', 1)));
    await new Promise((r) => setImmediate(r));
    assert.ok(logger.has('warn', /cleaning up after terminal "x" failed.*no monitor/));
    attachment.dispose();
    assert.equal(subscribed(), false);
  });
});
