import type { HookRegistry } from '../hooks/registry.js';
import { assertInteger, assertOptions, describe, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { DetectorSession, IpiBlockedError, IpiDetector } from './detector.js';
import type { ToolCall } from './types.js';

const utf8 = new TextDecoder();

/** A hook's payload, checked: a host's malformed event is its bug, typed (and the hook fails closed). */
function payloadOf<P extends { sessionId: string }>(payload: P, event: string): P {
  assertOptions(payload, `${event} payload`);
  if (typeof payload.sessionId !== 'string' || payload.sessionId.length === 0) throw new ParapetTypeError(`"${event} payload.sessionId" must be a non-empty string, got ${describe(payload.sessionId)}`);
  return payload;
}

/**
 * A tool result as the text the agent would read. JSON for plain values, with what
 * JSON.stringify would silently drop read as well (a Map or a Set as its entries,
 * bytes as UTF-8, also inside other values, an Error as its name, message, own
 * fields, cause and errors, a bigint as digits): a result turned into "{}" would be
 * observed as nothing. Undefined (a tool that returns nothing) is no text; a result
 * that cannot be written out (a cycle) is refused, typed, rather than passed on unread.
 */
function asText(result: unknown): string {
  if (typeof result === 'string') return result;
  try {
    const top = readable(result);
    if (typeof top === 'string') return top;
    // `this[key]` is the value before its toJSON ran: a Buffer's toJSON would turn it into a list of byte numbers.
    return JSON.stringify(top, function (this: Record<string, unknown>, key: string, v: unknown) {
      return readable(key === '' ? v : this[key], v);
    }) ?? '';
  } catch (cause) {
    throw new ParapetTypeError(`a tool result must be text or a value JSON can write out (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
  }
}

/** One value as JSON should see it (`converted`: after its toJSON, for everything this does not read itself). */
function readable(raw: unknown, converted: unknown = raw): unknown {
  if (raw instanceof Map) return [...raw];
  if (raw instanceof Set) return [...raw];
  if (ArrayBuffer.isView(raw)) return utf8.decode(raw);
  if (raw instanceof ArrayBuffer) return utf8.decode(new Uint8Array(raw));
  // An Error's message and name are not enumerable; its own fields (a response body, a cause) may be.
  if (raw instanceof Error) return { error: `${raw.name}: ${raw.message}`, ...raw, ...(raw.cause !== undefined ? { cause: raw.cause } : {}), ...(raw instanceof AggregateError ? { errors: raw.errors } : {}) };
  if (typeof raw === 'bigint') return raw.toString();
  return converted;
}

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
      async (payload) => {
        const { sessionId, call } = payloadOf(payload, 'pre-tool-call');
        const risk = await detector.session(sessionId).assess(call);
        if (risk.action === 'block') return { veto: true, reason: `parapet-ipi: ${risk.reasons.map((r) => r.message).join('; ') || risk.level}` };
        return undefined;
      },
      { name: 'parapet-ipi', priority: 100, timeoutMs: (options.approvalTimeoutMs ?? 60_000) + 5_000 },
    ),
    registry.register<PostToolCallPayload>(
      'post-tool-call',
      (payload) => {
        const { sessionId, toolName, result } = payloadOf(payload, 'post-tool-call');
        detector.session(sessionId).observe({ role: 'tool', toolName, content: asText(result) });
      },
      { name: 'parapet-ipi-observe', priority: 100 },
    ),
    registry.register<{ sessionId: string }>('session-end', (payload) => void detector.endSession(payloadOf(payload, 'session-end').sessionId), { name: 'parapet-ipi-end', priority: 100, onFailure: 'continue' }),
  ];
  return () => offs.forEach((off) => off());
}

/**
 * Wrap a tool function: each call is assessed first (a blocked call throws
 * IpiBlockedError and the tool never runs) and its result is observed as
 * untrusted content. A session that has ended (dropped as idle, say) makes the
 * wrapper throw ParapetStateError `destroyed` before the tool runs; if it ended
 * while the tool ran, the wrapper throws `result-withheld` instead of returning a
 * result no session has seen: the tool's effect has happened, so do not retry.
 */
export function guardTool<A, R>(name: string, fn: (args: A) => R | Promise<R>, session: DetectorSession): (args: A) => Promise<R> {
  if (typeof name !== 'string') throw new ParapetTypeError(`"name" must be a string, got ${describe(name)}`);
  if (typeof fn !== 'function') throw new ParapetTypeError(`"fn" must be a function, got ${describe(fn)}`);
  if (!(session instanceof DetectorSession)) throw new ParapetTypeError(`"session" must be a DetectorSession, got ${describe(session)}`);
  return async (args: A) => {
    const risk = await session.assess({ name, arguments: args });
    if (risk.action === 'block') throw new IpiBlockedError(risk);
    const result = await fn(args);
    try {
      session.observe({ role: 'tool', toolName: name, content: asText(result) });
    } catch (cause) {
      // The tool has run: say so, or a caller that retries on 'destroyed' repeats its effect.
      if (cause instanceof ParapetStateError && cause.code === 'destroyed') {
        throw new ParapetStateError(`"${name}" ran, but its session ended while it ran: its result is withheld, unseen by any session (do not retry the call; resume or start a session to go on)`, 'result-withheld', { cause });
      }
      throw cause;
    }
    return result;
  };
}
