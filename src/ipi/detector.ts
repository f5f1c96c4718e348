import { assertInteger, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import { DiagonalGaussian, type DiagonalGaussianState } from '../bindings/stats.js';
import { CoreClassifier, THRESHOLDS, type IpiClassifier } from './classifier.js';
import { IpiSession, type SessionContext } from './session.js';
import { IPI_MODES, type IpiMode, type IpiRisk, type Observation, type TextRisk, type ToolCall } from './types.js';

export interface IpiDetectorOptions {
  /** off | warn | block | hil. Default: PARAPET_IPI_MODE, else CLAUDE_FLOW_IPI_MODE, else warn. */
  readonly mode?: IpiMode;
  /** Standard deviations above a session's baseline that flag a signal. Default 2.5. */
  readonly threshold?: number;
  /** Calls before a session's baseline is used; calibrated absolute thresholds apply throughout. Default 5. */
  readonly warmup?: number;
  /** Replaces the embedded classifier (for example an onnxruntime-web session wrapped to this shape). */
  readonly classifier?: IpiClassifier;
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
export class IpiBlockedError extends Error {
  readonly code = 'ipi-blocked' as const;
  constructor(readonly risk: IpiRisk) {
    super(`tool call blocked: ${risk.reasons.join('; ') || `risk ${risk.level}`}`);
    this.name = 'IpiBlockedError';
  }
}

/**
 * Indirect prompt-injection detection as a pre-tool-call check. `inspect`
 * scores text; `session(id)` keeps what an agent has seen and assesses each
 * pending call against it (see README "Injection detection" for the signals).
 */
export class IpiDetector {
  readonly mode: IpiMode;
  readonly #ctx: SessionContext;
  readonly #sessions = new Map<string, IpiSession>();
  readonly #onApproval: IpiDetectorOptions['onApproval'];
  readonly #approvalTimeoutMs: number;

  constructor(options: IpiDetectorOptions = {}) {
    this.mode = resolveMode(options.mode, options.env ?? processEnv());
    const threshold = options.threshold ?? 2.5;
    if (typeof threshold !== 'number' || !(threshold > 0)) throw new ParapetRangeError(`"threshold" must be a positive number`, 'invalid-value');
    const warmup = options.warmup ?? 5;
    assertInteger(warmup, 'warmup', 0, 10_000);
    this.#approvalTimeoutMs = options.approvalTimeoutMs ?? 60_000;
    assertInteger(this.#approvalTimeoutMs, 'approvalTimeoutMs', 1, 2 ** 31 - 1);
    if (this.mode === 'hil' && typeof options.onApproval !== 'function') {
      throw new ParapetTypeError('mode hil needs an "onApproval" callback: without one every flagged call would be refused unseen');
    }
    this.#onApproval = options.onApproval;
    const ref = options.hiddenReference;
    // The classifier is only built when something will use it: mode off costs nothing.
    const classifier = this.mode === 'off' ? { probability: () => 0 } : (options.classifier ?? new CoreClassifier());
    this.#ctx = {
      classifier, thresholds: THRESHOLDS, threshold, warmup,
      ...(ref ? { hiddenReference: ref instanceof DiagonalGaussian ? ref : DiagonalGaussian.fromJSON(ref) } : {}),
      ...(options.probe ? { probe: options.probe } : {}),
    };
  }

  /** Stateless scoring of a text (a tool result as it arrives, say). */
  inspect(text: string): TextRisk {
    if (typeof text !== 'string') throw new ParapetTypeError(`"text" must be a string`);
    if (this.mode === 'off') return { score: 0, level: 'none', reasons: [] };
    const p = this.#ctx.classifier.probability(text);
    const t = THRESHOLDS;
    const level = p >= t.high ? 'high' : p >= t.medium ? 'medium' : p >= t.low ? 'low' : 'none';
    return { score: p, level, reasons: level === 'none' ? [] : [`reads like an injection (p=${p.toFixed(2)})`] };
  }

  /** Sessions currently held (ended ones are dropped). Always 0 in mode off. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** The session `id`, created on first use. In mode off nothing is kept: each handle is inert. */
  session(id: string): DetectorSession {
    if (typeof id !== 'string' || id.length === 0) throw new ParapetTypeError(`"id" must be a non-empty string`);
    // Off must cost nothing, memory included: a host that opens a session per
    // request would otherwise grow this map without bound.
    if (this.mode === 'off') return new DetectorSession(this, undefined, id);
    let s = this.#sessions.get(id);
    if (!s || s.ended) {
      s = new IpiSession(id, this.#ctx);
      this.#sessions.set(id, s);
    }
    return new DetectorSession(this, s);
  }

  /** @internal the decision for one call in this detector's mode. */
  async decide(session: IpiSession | undefined, call: ToolCall): Promise<IpiRisk> {
    if (this.mode === 'off' || session === undefined) return OFF;
    const risk = session.evaluate(call, this.mode);
    if (this.mode !== 'hil' || !risk.flagged) return risk;
    const approved = await this.#approve(risk, call, session.id);
    return { ...risk, action: approved ? 'allow' : 'block', reasons: [...risk.reasons, approved ? 'approved by a human' : 'not approved (refused, failed or timed out)'] };
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

  /** @internal */
  forget(id: string): void {
    this.#sessions.delete(id);
  }
}

const OFF: IpiRisk = Object.freeze({ score: 0, level: 'none', flagged: false, zScores: {}, signals: {}, action: 'allow', reasons: [], latencyMs: 0 });

/** A session handle: observe what the agent sees, assess what it wants to do. */
export class DetectorSession {
  readonly #id: string;

  constructor(
    private readonly detector: IpiDetector,
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
    if (this.detector.mode === 'off' || this.inner === undefined) return;
    this.inner.observe(observation);
  }

  /** Assess a pending call; in hil mode a flagged call waits for approval. */
  assess(call: ToolCall): Promise<IpiRisk> {
    return this.detector.decide(this.inner, call);
  }

  /** The same assessment, synchronously and without the approval step (for measurement and dry runs). */
  evaluate(call: ToolCall): IpiRisk {
    if (this.detector.mode === 'off' || this.inner === undefined) return OFF;
    return this.inner.evaluate(call, this.detector.mode);
  }

  end(): void {
    if (this.inner === undefined) return;
    this.inner.end();
    this.detector.forget(this.inner.id);
  }
}
