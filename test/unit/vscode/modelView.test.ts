/** Run a Command's document: a tool result as a model gets it, each part verbatim in a block no output can end early. */
import assert from 'node:assert/strict';
import { renderModelView, resultHeadline } from '../../../extension/src/vscode/modelView';

describe('the model view of a tool result (Run a Command)', () => {
  it('shows the call, the structured content as JSON and the text content, verbatim', () => {
    const structured = { status: 'completed', output: 'a ``` b', exitCode: 0, ledger: { runningTotal: 0, orphanedTotal: 0 } };
    const text = 'completed · exit code 0 · 12 ms\n--- output ---\na ``` b';
    const view = renderModelView('terminal_run', { command: 'echo' }, { content: [{ type: 'text', text }], structuredContent: structured });
    assert.ok(view.startsWith('# terminal_run {"command":"echo"}\n'), view);
    assert.ok(view.includes(`\`\`\`\`json\n${JSON.stringify(structured, null, 2)}\n\`\`\`\``), 'a fence longer than the output\'s backticks');
    assert.ok(view.includes(`\`\`\`\`text\n${text}\n\`\`\`\``), view);
    assert.equal(resultHeadline({ content: [{ type: 'text', text }] }), 'completed · exit code 0 · 12 ms');
  });

  it('a failure: only its text, marked as an error', () => {
    const view = renderModelView('terminal_run', { command: 'x' }, { isError: true, content: [{ type: 'text', text: 'WorkspaceUntrusted: trust it first.' }] });
    assert.match(view, /The call failed \(`isError: true`\): the model reads the text below\./);
    assert.ok(!view.includes('## Structured content'));
    assert.match(view, /## Text content\n\nThe model reads this\.\n\n```text\nWorkspaceUntrusted: trust it first\.\n```/);
  });
});
