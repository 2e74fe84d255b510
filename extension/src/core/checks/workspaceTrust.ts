/** First check: an untrusted workspace runs nothing, and nothing is typed into its terminals. */
import { workspaceUntrustedError } from '../errors';
import { PASS, type CommandCheck } from './commandCheck';

export function workspaceTrustCheck(isTrusted: () => boolean): CommandCheck {
  return {
    id: 'workspaceTrust',
    check: () => (isTrusted() ? PASS : { kind: 'refuse', error: workspaceUntrustedError() }),
  };
}
