import { BridgeErrorCode } from '../../../common/src/protocol';

/**
 * An expected failure with a named code and a message that says what to do next. The bridge turns
 * it into a ResponseError with the same code; the MCP server into an isError tool result.
 */
export class ShepherdError extends Error {
  constructor(
    readonly code: BridgeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ShepherdError';
  }
}

export { BridgeErrorCode };
