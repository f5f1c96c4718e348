// Argument checks for the detector's public surface. The detector runs inside an
// agent's tool loop: a malformed call or observation is the host's bug and must
// surface as a ParapetTypeError naming the field, never as a TypeError from deep
// in the session (which a host cannot tell from a detector defect).
import { assertFinite, assertOptions, describe, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import type { Anchors } from './calibration.js';
import type { Observation, ToolCall } from './types.js';

const ROLES = new Set(['system', 'user', 'tool']);

export function assertText(value: unknown, name: string): asserts value is string {
  if (typeof value !== 'string') throw new ParapetTypeError(`"${name}" must be a string, got ${describe(value)}`);
}

/**
 * The named fields of a host's object, read once into a plain object. A getter or
 * proxy trap that throws is the host's bug and surfaces typed, naming the field; and
 * one that answers differently each time cannot pass a check with one value and be
 * read with another.
 */
function fieldsOf(value: unknown, name: string, keys: readonly string[]): Record<string, unknown> {
  assertOptions(value, name);
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    try {
      out[key] = (value as Record<string, unknown>)[key];
    } catch (cause) {
      throw new ParapetTypeError(`"${name}.${key}" could not be read (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    }
  }
  return out;
}

/** The call checked, as a plain object read once (its `arguments` value as given). */
export function readToolCall(call: unknown): ToolCall {
  const c = fieldsOf(call, 'call', ['name', 'arguments', 'logprobs', 'hiddenState']);
  // Any string: the name is the model's output, which injected content can shape, so an odd one is assessed, not refused.
  if (typeof c.name !== 'string') throw new ParapetTypeError(`"call.name" must be a string, got ${describe(c.name)}`);
  if (c.logprobs !== undefined && (!Array.isArray(c.logprobs) || c.logprobs.some((row) => !Array.isArray(row) || row.some((x) => typeof x !== 'number')))) {
    throw new ParapetTypeError('"call.logprobs" must be an array of arrays of numbers');
  }
  if (c.hiddenState !== undefined && (typeof c.hiddenState !== 'object' || c.hiddenState === null || typeof (c.hiddenState as { length?: unknown }).length !== 'number')) {
    throw new ParapetTypeError(`"call.hiddenState" must be an array of numbers, got ${describe(c.hiddenState)}`);
  }
  return {
    name: c.name,
    arguments: c.arguments,
    ...(c.logprobs !== undefined ? { logprobs: c.logprobs as ToolCall['logprobs'] } : {}),
    ...(c.hiddenState !== undefined ? { hiddenState: c.hiddenState as ArrayLike<number> } : {}),
  };
}

/** The observation checked, as a plain object read once. */
export function readObservation(observation: unknown): Observation {
  const o = fieldsOf(observation, 'observation', ['role', 'content', 'toolName']);
  if (typeof o.role !== 'string' || !ROLES.has(o.role)) throw new ParapetTypeError(`"observation.role" must be 'system', 'user' or 'tool', got ${typeof o.role === 'string' ? `'${o.role}'` : describe(o.role)}`);
  assertText(o.content, 'observation.content');
  if (o.toolName !== undefined) assertText(o.toolName, 'observation.toolName');
  return { role: o.role as Observation['role'], content: o.content, ...(o.toolName !== undefined ? { toolName: o.toolName } : {}) };
}

export function assertAnchors(value: unknown, name = 'anchors'): asserts value is Anchors {
  assertOptions(value, name);
  const a = value as Record<string, unknown>;
  for (const k of ['low', 'medium', 'high']) assertFinite(a[k], `${name}.${k}`);
  if (!((a.low as number) < (a.medium as number) && (a.medium as number) < (a.high as number))) {
    throw new ParapetRangeError(`"${name}" must be increasing (low < medium < high)`, 'invalid-value');
  }
}
