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

export interface IpiRisk {
  /** Combined risk in [0, 1]: the strongest of the signals, each mapped to [0, 1]. */
  readonly score: number;
  readonly level: IpiLevel;
  readonly flagged: boolean;
  readonly zScores: Partial<Record<SignalName, number>>;
  readonly signals: Partial<Record<SignalName, SignalReport>>;
  readonly action: IpiAction;
  readonly reasons: readonly string[];
  readonly latencyMs: number;
}

export interface TextRisk {
  readonly score: number;
  readonly level: IpiLevel;
  readonly reasons: readonly string[];
}
