/**
 * parapet/hooks — a generic hook registry; capabilities register into it.
 *
 * @module parapet/hooks
 */
export {
  HookRegistry, HOOK_EVENTS, type HookEvent, type HookHandler, type HookOptions, type HookContext, type HookVerdict,
  type HookRun, type HandlerOutcome,
} from './registry.js';

// The package's errors and result shape, so that code using only this entry can catch and switch on them.
export { ParapetError, ParapetTypeError, ParapetRangeError, ParapetStateError } from '../bindings/errors.js';
export type { ParapetErrorCode } from '../bindings/errors.js';
export type { VerifyResult, VerifyFailure } from '../bindings/result.js';
