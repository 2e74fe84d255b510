/** The one list of execution strategies, by name. */
import type { StrategyName } from '../../../../../common/src/protocol';
import type { ExecutionStrategy } from './executionStrategy';
import { pseudoterminalStrategy } from './pseudoterminalStrategy';
import { shepherdStrategy } from './shepherdStrategy';
import { vscodeStrategy } from './vscodeStrategy';

export const strategies: Readonly<Record<StrategyName, ExecutionStrategy>> = {
  vscode: vscodeStrategy,
  shepherd: shepherdStrategy,
  pseudoterminal: pseudoterminalStrategy,
};

export type { ExecutionStrategy } from './executionStrategy';
export { strategyChain } from './strategyChain';
