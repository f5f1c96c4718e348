export type IpiMode = 'off' | 'warn' | 'block' | 'hil';
export const IPI_MODES: readonly IpiMode[] = ['off', 'warn', 'block', 'hil'];
export type IpiLevel = 'none' | 'low' | 'medium' | 'high';
export type IpiAction = 'allow' | 'block';

/** A pending tool call as the agent proposes it. */
export interface ToolCall {
  readonly name: string;
  readonly arguments: unknown;
  /** Top-k natural-log probabilities per generated token of the call, when the model exposes them. */
  readonly logprobs?: readonly (readonly number[])[];
  /** The model's hidden state at the tool-input position, when available. */
  readonly hiddenState?: ArrayLike<number>;
}

export interface Observation {
  readonly role: 'system' | 'user' | 'tool';
  readonly content: string;
  readonly toolName?: string;
}

export type SignalName = 'content' | 'provenance' | 'surprise' | 'entropy' | 'hiddenState';

export interface SignalReport {
  readonly value: number;
  /** Against this session's baseline; undefined before the warm-up ends. */
  readonly zScore?: number;
  readonly flagged: boolean;
  readonly detail?: string;
}

/** Why a text or call was flagged: a stable code to switch on, and words for people. */
export interface IpiReason {
  readonly code: IpiReasonCode;
  readonly message: string;
}

export type IpiReasonCode =
  | 'content' // the text (or the call's own input) reads like an injection
  | 'provenance' // an argument was copied from an injection-like passage
  | 'tool-affinity' // the tool is what an injection-like passage asks for
  | 'after-injection' // the call follows injection-like tool output
  | 'novel-value' // an argument holds a value nothing in the session contains
  | 'surprise' // the call is unusual for the session
  | 'not-asked' // the user asked a question, the call changes something
  | 'trace' // the trace model's score, no single feature standing out
  | 'approved' // hil: a human approved the flagged call
  | 'not-approved'; // hil: refused, failed or timed out

export interface IpiRisk {
  /** The trace model's score on the detector's scale (levels: calibration.ts `LEVELS`). */
  readonly score: number;
  readonly level: IpiLevel;
  readonly flagged: boolean;
  readonly zScores: Partial<Record<SignalName, number>>;
  readonly signals: Partial<Record<SignalName, SignalReport>>;
  readonly action: IpiAction;
  readonly reasons: readonly IpiReason[];
  readonly latencyMs: number;
}

export interface TextRisk {
  /** On the detector's scale: 0.35, 0.6 and 0.85 are exceeded by 5%, 1% and 0.1% of benign text. */
  readonly score: number;
  readonly level: IpiLevel;
  readonly reasons: readonly IpiReason[];
}
