/**
 * parapet/hooks — a generic hook registry; capabilities register into it.
 *
 * @module parapet/hooks
 */
export {
  HookRegistry, HOOK_EVENTS, type HookEvent, type HookHandler, type HookOptions, type HookContext, type HookVerdict,
  type HookRun, type HandlerOutcome,
} from './registry.js';
