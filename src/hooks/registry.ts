import { assertInteger, assertOptions, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';

/**
 * The events an agent runtime fires and the package's handlers listen to
 * (the detector on the tool calls, memory retention on session end). No event
 * for memory writes: the store never fired one, and a veto registered on it
 * would have gated nothing; the store's `guard` quarantines writes instead.
 */
export type HookEvent = 'pre-tool-call' | 'post-tool-call' | 'session-end';
export const HOOK_EVENTS: readonly HookEvent[] = ['pre-tool-call', 'post-tool-call', 'session-end'];

/** What a handler may return: nothing (carry on) or a veto with a reason. */
export type HookVerdict = void | undefined | { readonly veto: true; readonly reason: string } | { readonly veto?: false };

export interface HookContext {
  readonly event: HookEvent;
  /** Aborted when the handler's time is up; long work should stop. */
  readonly signal: AbortSignal;
}

export type HookHandler<P = unknown> = (payload: P, context: HookContext) => HookVerdict | Promise<HookVerdict>;

export interface HookOptions {
  /** For reports and audit; defaults to `hook-<n>`. */
  readonly name?: string;
  /** Higher runs first. Security gates (the injection detector) register at 100. */
  readonly priority?: number;
  /** Per-handler time limit. Default 5000 ms. */
  readonly timeoutMs?: number;
  /**
   * What a throw or timeout means. 'veto' (default) fails closed: the event is
   * refused. 'continue' records the failure and runs the next handler.
   */
  readonly onFailure?: 'veto' | 'continue';
}

export interface HandlerOutcome {
  readonly name: string;
  readonly outcome: 'ok' | 'veto' | 'error' | 'timeout';
  readonly reason?: string;
  readonly durationMs: number;
}

export interface HookRun {
  readonly event: HookEvent;
  readonly vetoed: boolean;
  /** The handler that vetoed, and why. */
  readonly vetoedBy?: string;
  readonly reason?: string;
  readonly handlers: readonly HandlerOutcome[];
}

interface Entry {
  readonly name: string;
  readonly priority: number;
  readonly timeoutMs: number;
  readonly onFailure: 'veto' | 'continue';
  readonly order: number;
  readonly handler: HookHandler<never>;
}

/**
 * A small, generic hook registry: named events, priorities (higher first,
 * then registration order), async handlers run one after another, veto, and
 * per-handler timeouts that fail closed unless a handler opts out. It knows
 * nothing of the capabilities that register into it.
 */
export class HookRegistry {
  readonly #handlers = new Map<HookEvent, Entry[]>();
  #registered = 0;

  /** Register `handler` for `event`; returns a function that unregisters it. */
  register<P>(event: HookEvent, handler: HookHandler<P>, options: HookOptions = {}): () => void {
    if (!HOOK_EVENTS.includes(event)) throw new ParapetRangeError(`"event" must be one of ${HOOK_EVENTS.join(', ')}`, 'invalid-value');
    if (typeof handler !== 'function') throw new ParapetTypeError('"handler" must be a function');
    assertOptions(options);
    if (options.name !== undefined && typeof options.name !== 'string') throw new ParapetTypeError('"name" must be a string');
    const priority = options.priority ?? 0;
    if (!Number.isFinite(priority)) throw new ParapetTypeError('"priority" must be a finite number');
    const timeoutMs = options.timeoutMs ?? 5000;
    assertInteger(timeoutMs, 'timeoutMs', 1, 2 ** 31 - 1);
    const onFailure = options.onFailure ?? 'veto';
    if (onFailure !== 'veto' && onFailure !== 'continue') throw new ParapetRangeError(`"onFailure" must be 'veto' or 'continue'`, 'invalid-value');
    const order = this.#registered++;
    const entry: Entry = { name: options.name ?? `hook-${order}`, priority, timeoutMs, onFailure, order, handler: handler as HookHandler<never> };
    const list = [...(this.#handlers.get(event) ?? []), entry].sort((a, b) => b.priority - a.priority || a.order - b.order);
    this.#handlers.set(event, list);
    return () => {
      this.#handlers.set(event, (this.#handlers.get(event) ?? []).filter((e) => e !== entry));
    };
  }

  /** Handler names for `event`, in the order they run. */
  handlers(event: HookEvent): string[] {
    return (this.#handlers.get(event) ?? []).map((e) => e.name);
  }

  /** Run every handler of `event` in order until one vetoes. */
  async run<P>(event: HookEvent, payload: P): Promise<HookRun> {
    if (!HOOK_EVENTS.includes(event)) throw new ParapetRangeError(`"event" must be one of ${HOOK_EVENTS.join(', ')}`, 'invalid-value');
    const outcomes: HandlerOutcome[] = [];
    for (const entry of [...(this.#handlers.get(event) ?? [])]) {
      const outcome = await runOne(entry, event, payload);
      outcomes.push(outcome);
      const refuses = outcome.outcome === 'veto' || (outcome.outcome !== 'ok' && entry.onFailure === 'veto');
      if (refuses) return { event, vetoed: true, vetoedBy: entry.name, reason: outcome.reason, handlers: outcomes };
    }
    return { event, vetoed: false, handlers: outcomes };
  }
}

async function runOne(entry: Entry, event: HookEvent, payload: unknown): Promise<HandlerOutcome> {
  const controller = new AbortController();
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(new Error(`hook ${entry.name} timed out`));
      resolve('timeout');
    }, entry.timeoutMs);
  });
  try {
    const result = await Promise.race([
      Promise.resolve().then(() => (entry.handler as HookHandler<unknown>)(payload, { event, signal: controller.signal })),
      timeout,
    ]);
    const durationMs = performance.now() - started;
    if (result === 'timeout') return { name: entry.name, outcome: 'timeout', reason: `timed out after ${entry.timeoutMs} ms`, durationMs };
    if (result && typeof result === 'object' && result.veto === true) {
      return { name: entry.name, outcome: 'veto', reason: String(result.reason ?? 'vetoed'), durationMs };
    }
    return { name: entry.name, outcome: 'ok', durationMs };
  } catch (error) {
    return { name: entry.name, outcome: 'error', reason: error instanceof Error ? error.message : String(error), durationMs: performance.now() - started };
  } finally {
    clearTimeout(timer);
  }
}
