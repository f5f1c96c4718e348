import { assertInteger, assertOptions, describe, ParapetError, ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { DiagonalGaussian, type DiagonalGaussianState } from '../bindings/stats.js';
import { levelOf } from './calibration.js';
import { readObservation, readToolCall } from './checks.js';
import { CoreClassifier, type ContentScorer } from './classifier.js';
import { IpiSession, type SessionContext, type SessionState } from './session.js';
import { TraceModel, type TraceScorer } from './trace-model.js';
import { IPI_MODES, type IpiMode, type IpiRisk, type Observation, type TextRisk, type ToolCall } from './types.js';

export interface IpiDetectorOptions {
  /** off | warn | block | hil. Default: PARAPET_IPI_MODE, else CLAUDE_FLOW_IPI_MODE, else warn. */
  readonly mode?: IpiMode;
  /** Standard deviations above a session's baseline that flag a signal. Default 2.5. */
  readonly threshold?: number;
  /** Calls before a session's baseline z-scores are reported. Default 5. */
  readonly warmup?: number;
  /** Replaces the embedded content model (for example an onnxruntime-web session wrapped to this shape: scores on the detector's scale, see `calibrate`). */
  readonly classifier?: ContentScorer;
  /** Replaces the embedded trace model (`assess`'s decision): scores a call's features (`TRACE_FEATURES`) on the detector's scale. */
  readonly traceModel?: TraceScorer;
  /**
   * Sessions not used for this long are dropped. A dropped session that had read
   * tool results is not restarted empty: `session(id)` refuses it (ParapetStateError
   * `session-dropped`) until `resume(state)` or `endSession(id)`. Default 1 hour.
   */
  readonly sessionIdleMs?: number;
  /** Most sessions held at once; the least recently used is dropped beyond it, as if idle. Default 10,000. */
  readonly maxSessions?: number;
  /**
   * Called with a session's state as it is dropped (idle or beyond `maxSessions`),
   * so the host can keep it for `resume`. A throw is ignored: the id stays refused.
   */
  readonly onSessionDropped?: (state: SessionState) => void;
  /** hil mode: asked to approve each flagged call; true allows. A throw, a false or a timeout blocks. */
  readonly onApproval?: (risk: IpiRisk, call: ToolCall, sessionId: string) => boolean | Promise<boolean>;
  /** hil mode: how long to wait for `onApproval`. Default 60 s. */
  readonly approvalTimeoutMs?: number;
  /** Hidden states of benign calls, for the RepE signal (a DiagonalGaussian or its saved state). */
  readonly hiddenReference?: DiagonalGaussian | DiagonalGaussianState;
  /** Or a linear probe over hidden states: P(injection) = sigmoid(w·h + b). */
  readonly probe?: { readonly weights: ArrayLike<number>; readonly bias: number };
  /** Where the mode is read from when not given; default the process environment if there is one. */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Mode from options, else the environment; an unknown value is a configuration
 * error, never a fallback. An empty (or blank) variable counts as unset, so
 * `PARAPET_IPI_MODE=` cannot shadow a `CLAUDE_FLOW_IPI_MODE=block` set beside it.
 */
export function resolveMode(mode: unknown, env: Readonly<Record<string, string | undefined>>): IpiMode {
  const set = (name: 'PARAPET_IPI_MODE' | 'CLAUDE_FLOW_IPI_MODE') => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : { name, value: value.toLowerCase() };
  };
  const fromEnv = set('PARAPET_IPI_MODE') ?? set('CLAUDE_FLOW_IPI_MODE');
  const chosen = mode ?? fromEnv?.value ?? 'warn';
  if (!IPI_MODES.includes(chosen as IpiMode)) {
    const where = mode !== undefined ? 'options.mode' : fromEnv!.name;
    throw new ParapetRangeError(`${where} must be one of ${IPI_MODES.join(', ')}, got ${JSON.stringify(chosen)}`, 'invalid-value');
  }
  return chosen as IpiMode;
}

const processEnv = (): Readonly<Record<string, string | undefined>> =>
  (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};

/** A call refused by the detector (guardTool throws it). */
export class IpiBlockedError extends ParapetError {
  declare readonly code: 'ipi-blocked';
  constructor(readonly risk: IpiRisk) {
    assertOptions(risk, 'risk');
    const reasons = Array.isArray(risk.reasons) ? risk.reasons.map((r) => String((r as { message?: unknown })?.message ?? '')).filter(Boolean) : [];
    super(`tool call blocked: ${reasons.join('; ') || `risk ${String(risk.level)}`}`, 'ipi-blocked');
  }
}

/**
 * Indirect prompt-injection detection as a pre-tool-call check. `inspect`
 * scores text; `session(id)` keeps what an agent has seen and assesses each
 * pending call against it (docs/guide/injection-detection.md describes the signals).
 */
export class IpiDetector {
  readonly #mode: IpiMode;
  readonly #ctx: SessionContext;
  readonly #sessions = new Map<string, IpiSession>();
  readonly #onApproval: IpiDetectorOptions['onApproval'];
  readonly #approvalTimeoutMs: number;
  readonly #idleMs: number;
  readonly #maxSessions: number;
  readonly #onDropped: IpiDetectorOptions['onSessionDropped'];
  /**
   * Ids of dropped sessions that had read tool results, oldest first, at most
   * `maxSessions`, with how many results each had read: starting one afresh would
   * judge its next call without what it read, and so would resuming an older state.
   */
  readonly #dropped = new Map<string, number>();
  /** What a session handle may do to its detector; not on the prototype, so not part of the API. */
  readonly #hands: DetectorHands = {
    mode: () => this.#mode,
    touch: (s) => this.#touch(s),
    decide: (s, call, hostCall) => this.#decide(s, call, hostCall),
    // Only the session this handle holds: after a resume or a new session of the
    // same id, ending an old handle must not drop the live one.
    forget: (s) => void (this.#sessions.get(s.id) === s && this.#sessions.delete(s.id)),
  };

  constructor(options: IpiDetectorOptions = {}) {
    assertOptions(options);
    if (options.env !== undefined) assertOptions(options.env, 'env');
    for (const k of ['onApproval', 'onSessionDropped'] as const) {
      if (options[k] !== undefined && typeof options[k] !== 'function') throw new ParapetTypeError(`"${k}" must be a function, got ${describe(options[k])}`);
    }
    for (const k of ['classifier', 'traceModel', 'probe'] as const) {
      const v = options[k] as { score?: unknown } | undefined;
      if (v !== undefined && (typeof v !== 'object' || v === null || (k !== 'probe' && typeof v.score !== 'function'))) throw new ParapetTypeError(`"${k}" must be an object with a score method, got ${describe(v)}`);
    }
    this.#mode = resolveMode(options.mode, options.env ?? processEnv());
    const threshold = options.threshold ?? 2.5;
    if (typeof threshold !== 'number' || !(threshold > 0)) throw new ParapetRangeError(`"threshold" must be a positive number`, 'invalid-value');
    const warmup = options.warmup ?? 5;
    assertInteger(warmup, 'warmup', 0, 10_000);
    this.#approvalTimeoutMs = options.approvalTimeoutMs ?? 60_000;
    assertInteger(this.#approvalTimeoutMs, 'approvalTimeoutMs', 1, 2 ** 31 - 1);
    this.#idleMs = options.sessionIdleMs ?? 3_600_000;
    assertInteger(this.#idleMs, 'sessionIdleMs', 1, Number.MAX_SAFE_INTEGER);
    this.#maxSessions = options.maxSessions ?? 10_000;
    assertInteger(this.#maxSessions, 'maxSessions', 1, 10_000_000);
    if (this.mode === 'hil' && typeof options.onApproval !== 'function') {
      throw new ParapetTypeError('mode hil needs an "onApproval" callback: without one every flagged call would be refused unseen');
    }
    this.#onApproval = options.onApproval;
    this.#onDropped = options.onSessionDropped;
    const ref = options.hiddenReference;
    // The models are only built when something will use them: mode off costs nothing.
    const off = this.mode === 'off';
    const content: ContentScorer = off ? { score: () => 0, passages: () => [] } : (options.classifier ?? new CoreClassifier());
    const trace: TraceScorer = off ? { score: () => 0 } : (options.traceModel ?? new TraceModel());
    this.#ctx = {
      content, trace, threshold, warmup,
      ...(ref ? { hiddenReference: ref instanceof DiagonalGaussian ? ref : DiagonalGaussian.fromJSON(ref) } : {}),
      ...(options.probe ? { probe: options.probe } : {}),
    };
  }

  /** off | warn | block | hil, fixed when the detector is made (a getter: it cannot be switched off later by assignment). */
  get mode(): IpiMode {
    return this.#mode;
  }

  /** Stateless scoring of a text (a tool result as it arrives, say), on the same scale as `assess`. */
  inspect(text: string): TextRisk {
    if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string`);
    if (this.mode === 'off') return { score: 0, level: 'none', reasons: [] };
    const score = this.#ctx.content.score(text);
    const level = levelOf(score);
    return { score, level, reasons: level === 'none' ? [] : [{ code: 'content', message: `reads like an injection (${score.toFixed(2)})` }] };
  }

  /** Sessions currently held (ended ones are dropped). Always 0 in mode off. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /**
   * End the session held under `id`, if any, without creating one (what a
   * session-end hook needs: creating a session only to end it could evict a live
   * one), and lift the refusal of a dropped one. Returns whether either was held.
   */
  endSession(id: string): boolean {
    if (typeof id !== 'string' || id.length === 0) throw new ParapetTypeError(`"id" must be a non-empty string`);
    const s = this.#sessions.get(id);
    if (s === undefined) return this.#dropped.delete(id);
    s.end();
    this.#hands.forget(s);
    return true;
  }

  /**
   * The session `id`, created on first use. In mode off nothing is kept: each
   * handle is inert. Throws ParapetStateError `session-dropped` for a session that
   * was dropped after reading tool results (see `sessionIdleMs`).
   */
  session(id: string): DetectorSession {
    if (typeof id !== 'string' || id.length === 0) throw new ParapetTypeError(`"id" must be a non-empty string`);
    // Off must cost nothing, memory included: a host that opens a session per
    // request would otherwise grow this map without bound.
    if (this.mode === 'off') return new DetectorSession(this.#hands, undefined, id);
    let s = this.#sessions.get(id);
    if (!s || s.ended) {
      if (this.#dropped.has(id)) {
        throw new ParapetStateError(`session "${id}" was dropped (idle for sessionIdleMs, or beyond maxSessions) after it had read tool results: its calls cannot be judged without them. resume(state) it from saved state (see onSessionDropped), or endSession(id) to start it afresh`, 'session-dropped');
      }
      s = new IpiSession(id, this.#ctx);
      this.#hold(s);
    }
    return new DetectorSession(this.#hands, s);
  }

  /**
   * A session resumed from `DetectorSession.toJSON()` (in this process or another
   * worker). Replaces a held session of the same id. State older than what this
   * detector holds or dropped for the id (fewer tool results read) is refused
   * (ParapetStateError `stale-state`): it would forget the results read since.
   * `endSession(id)` first to roll a session back on purpose.
   */
  resume(state: SessionState): DetectorSession {
    const s = IpiSession.fromJSON(state, this.#ctx);
    if (this.mode === 'off') return new DetectorSession(this.#hands, undefined, s.id);
    const read = Math.max(this.#sessions.get(s.id)?.results ?? -1, this.#dropped.get(s.id) ?? -1);
    if (s.results < read) {
      throw new ParapetStateError(`session "${s.id}" state is older than the session this detector has (it read ${read} tool results, the state ${s.results}): resuming it would forget what was read since. endSession(id) first to roll it back on purpose`, 'stale-state');
    }
    this.#sessions.get(s.id)?.end();
    this.#dropped.delete(s.id);
    this.#hold(s);
    return new DetectorSession(this.#hands, s);
  }

  /** Keep `s`, dropping idle sessions and, beyond `maxSessions`, the least recently used. */
  #hold(s: IpiSession): void {
    const now = Date.now();
    s.lastUsed = now;
    this.#sessions.delete(s.id);
    this.#sessions.set(s.id, s);
    // Map order is insertion order and every use re-inserts: the first entries are the stalest.
    for (const [id, old] of this.#sessions) {
      if (this.#sessions.size <= this.#maxSessions && now - old.lastUsed < this.#idleMs) break;
      this.#sessions.delete(id);
      this.#drop(old);
    }
  }

  /** End a session the detector no longer holds room or time for, keeping its id refused if it read tool results. */
  #drop(s: IpiSession): void {
    if (s.readUntrusted) {
      this.#dropped.delete(s.id);
      this.#dropped.set(s.id, s.results);
      // Bounded like the sessions themselves; the oldest refusal goes first.
      if (this.#dropped.size > this.#maxSessions) this.#dropped.delete(this.#dropped.keys().next().value!);
      if (this.#onDropped) {
        try {
          this.#onDropped(s.toJSON());
        } catch {
          // The host failed to keep it: the id stays refused, which is the safe side.
        }
      }
    }
    s.end();
  }

  /** A session was used: it moves to the back of the eviction order. */
  #touch(s: IpiSession): void {
    if (this.#sessions.get(s.id) === s) this.#hold(s);
  }

  /**
   * The decision for one call in this detector's mode: `call` is what is judged (the
   * host's fields, read once); the approver is handed the host's own object, with
   * whatever else the host keeps on it (an id, say).
   */
  async #decide(session: IpiSession | undefined, call: ToolCall, hostCall: ToolCall = call): Promise<IpiRisk> {
    if (this.mode === 'off' || session === undefined) return OFF;
    this.#touch(session);
    const risk = session.evaluate(call, this.mode);
    if (this.mode !== 'hil' || !risk.flagged) return risk;
    const approved = await this.#approve(risk, hostCall, session.id);
    return {
      ...risk, action: approved ? 'allow' : 'block',
      reasons: [...risk.reasons, approved ? { code: 'approved', message: 'approved by a human' } : { code: 'not-approved', message: 'not approved (refused, failed or timed out)' }],
    };
  }

  /** Fail closed: only an explicit true within the time limit approves. */
  async #approve(risk: IpiRisk, call: ToolCall, sessionId: string): Promise<boolean> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), this.#approvalTimeoutMs)));
    try {
      return (await Promise.race([Promise.resolve().then(() => this.#onApproval!(risk, call, sessionId)), timeout])) === true;
    } catch {
      return false;
    } finally {
      clearTimeout(timer);
    }
  }

}

const OFF: IpiRisk = Object.freeze({ score: 0, level: 'none', flagged: false, zScores: {}, signals: {}, action: 'allow', reasons: [], latencyMs: 0 });

interface DetectorHands {
  mode(): IpiMode;
  touch(s: IpiSession): void;
  decide(s: IpiSession | undefined, call: ToolCall, hostCall?: ToolCall): Promise<IpiRisk>;
  forget(s: IpiSession): void;
}

/** A session handle: observe what the agent sees, assess what it wants to do. */
export class DetectorSession {
  readonly #id: string;

  /** @internal made by `IpiDetector.session` and `resume` */
  constructor(
    private readonly detector: DetectorHands,
    /** Undefined in mode off, where nothing is kept. */
    private readonly inner: IpiSession | undefined,
    id?: string,
  ) {
    const resolved = id ?? inner?.id;
    if (resolved === undefined) throw new ParapetTypeError('a DetectorSession needs a session or an "id"');
    this.#id = resolved;
  }

  get id(): string {
    return this.#id;
  }

  observe(observation: Observation): void {
    const read = readObservation(observation);
    if (this.detector.mode() === 'off' || this.inner === undefined) return;
    this.detector.touch(this.inner);
    this.inner.observe(read);
  }

  /** Assess a pending call; in hil mode a flagged call waits for approval. */
  assess(call: ToolCall): Promise<IpiRisk> {
    let read: ToolCall;
    try {
      read = readToolCall(call);
    } catch (e) {
      return Promise.reject(e);
    }
    return this.detector.decide(this.inner, read, call);
  }

  /** The same assessment, synchronously and without the approval step (for measurement and dry runs). */
  evaluate(call: ToolCall): IpiRisk {
    const read = readToolCall(call);
    const mode = this.detector.mode();
    if (mode === 'off' || this.inner === undefined) return OFF;
    this.detector.touch(this.inner);
    return this.inner.evaluate(read, mode);
  }

  /** The session's state (versioned; hashes and statistics, never the text it saw), for `IpiDetector.resume` on any worker. */
  toJSON(): SessionState | undefined {
    return this.inner?.toJSON();
  }

  end(): void {
    if (this.inner === undefined) return;
    this.inner.end();
    this.detector.forget(this.inner);
  }
}
