import type { HookRegistry } from '../hooks/registry.js';
import { assertInteger, assertOptions, describe, ParapetTypeError } from '../bindings/errors.js';
import { IpiBlockedError, IpiDetector, type DetectorSession } from './detector.js';
import type { ToolCall } from './types.js';

/** A tool result as the text the agent would read. */
const asText = (result: unknown): string => (typeof result === 'string' ? result : (JSON.stringify(result) ?? ''));

/** Payloads the IPI hooks read. */
export interface PreToolCallPayload {
  readonly sessionId: string;
  readonly call: ToolCall;
}
export interface PostToolCallPayload {
  readonly sessionId: string;
  readonly toolName: string;
  readonly result: unknown;
}

/**
 * Register the detector at priority 100, so it runs before every other
 * pre-tool-call hook: it vetoes blocked calls (and, in hil mode, waits for
 * approval inside its time limit); post-tool-call feeds results to the
 * session; session-end forgets it. Returns a function that unregisters all three.
 */
export function registerIpiHook(registry: Pick<HookRegistry, 'register'>, detector: IpiDetector, options: { approvalTimeoutMs?: number } = {}): () => void {
  if (typeof (registry as { register?: unknown } | null)?.register !== 'function') throw new ParapetTypeError(`"registry" must be a HookRegistry, got ${describe(registry)}`);
  if (!(detector instanceof IpiDetector)) throw new ParapetTypeError(`"detector" must be an IpiDetector, got ${describe(detector)}`);
  assertOptions(options);
  if (options.approvalTimeoutMs !== undefined) assertInteger(options.approvalTimeoutMs, 'approvalTimeoutMs', 1, 2 ** 31 - 1);
  const offs = [
    registry.register<PreToolCallPayload>(
      'pre-tool-call',
      async ({ sessionId, call }) => {
        const risk = await detector.session(sessionId).assess(call);
        if (risk.action === 'block') return { veto: true, reason: `parapet-ipi: ${risk.reasons.map((r) => r.message).join('; ') || risk.level}` };
        return undefined;
      },
      { name: 'parapet-ipi', priority: 100, timeoutMs: (options.approvalTimeoutMs ?? 60_000) + 5_000 },
    ),
    registry.register<PostToolCallPayload>(
      'post-tool-call',
      ({ sessionId, toolName, result }) => {
        detector.session(sessionId).observe({ role: 'tool', toolName, content: asText(result) });
      },
      { name: 'parapet-ipi-observe', priority: 100 },
    ),
    registry.register<{ sessionId: string }>('session-end', ({ sessionId }) => void detector.endSession(sessionId), { name: 'parapet-ipi-end', priority: 100, onFailure: 'continue' }),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * Wrap a tool function: each call is assessed first (a blocked call throws
 * IpiBlockedError and the tool never runs) and its result is observed as
 * untrusted content. A session that has ended (dropped as idle, say) makes the
 * wrapper throw ParapetStateError `destroyed`: before the tool runs, or, if it
 * ended while the tool ran, instead of returning a result no session has seen.
 */
export function guardTool<A, R>(name: string, fn: (args: A) => R | Promise<R>, session: DetectorSession): (args: A) => Promise<R> {
  return async (args: A) => {
    const risk = await session.assess({ name, arguments: args });
    if (risk.action === 'block') throw new IpiBlockedError(risk);
    const result = await fn(args);
    session.observe({ role: 'tool', toolName: name, content: asText(result) });
    return result;
  };
}
