// A user's short turn after tool results that confirms one of their request lines ("Add that to my calendar", "go
// ahead with step 1"): which line it confirms, and which call that vouches for (decision 107). Hashes in, hashes
// out: the session keeps no text.

import type { TurnReference } from './requests.js';

/** What a confirmation reads of a source (see session.ts). */
export interface ConfirmableSource {
  readonly score: number;
  readonly segment: number;
  readonly result: number;
  readonly request: boolean;
  readonly step: number;
  readonly sets: readonly ReadonlySet<number>[];
}

/** The line a user's turn confirmed; it holds until the user's next turn. */
export interface Endorsement<S extends ConfirmableSource = ConfirmableSource> {
  /** The line: what the call copies from it, but its addresses, accounts and links, is the user's. */
  readonly line: S;
  /** Words that name the action confirmed: the turn's (by words) or the line's (by step). */
  readonly actions: ReadonlySet<number>;
  /** The turn's words (by words), or null (by step): a term of the tool that the line names must be one the turn names. */
  readonly named: ReadonlySet<number> | null;
}

/**
 * The line `ref` names: undefined unless exactly one line of the whole session fits it (a request line holding the
 * turn's words, or any line numbered as the turn's step), and that line asks its reader for a change, reads below
 * `high` on its own and was read since the user's previous turn (`since`). A line of an earlier result that fits too
 * makes it ambiguous ("go ahead with step 2" may mean an earlier plan's), as does a second line of the same result
 * (an injected line written to match the confirmation must not win over the line the user meant). A session that has
 * dropped lines cannot tell: it confirms none (`complete` false).
 */
export function endorsementOf<S extends ConfirmableSource>(ref: TurnReference, sources: readonly S[], since: number, high: number, complete: boolean, hash: (word: string) => number): Endorsement<S> | undefined {
  if (!complete) return undefined;
  const named = 'words' in ref ? ref.words.map(hash) : [];
  const fits = 'step' in ref ? (src: S): boolean => src.step === ref.step : (src: S): boolean => src.request && named.every((h) => src.sets[0]!.has(h));
  let line: S | undefined;
  for (const src of sources) {
    if (!fits(src)) continue;
    if (line !== undefined) return undefined;
    line = src;
  }
  if (line === undefined || !line.request || Math.max(line.score, line.segment) >= high || line.result < since) return undefined;
  return 'step' in ref ? { line, actions: line.sets[0]!, named: null } : { line, actions: new Set(ref.verbs.map(hash)), named: new Set(named) };
}

/**
 * Whether the confirmation vouches for a call of this tool: its verb or a synonym (`verbs`, hashed) is an action the
 * user confirmed, and, confirmed by words, every term of the tool (`terms`: each term's hashed variants) that the line
 * names the turn names too. "Add that to my calendar" vouches for `create_event`, not for an `add_collaborator` the
 * same line asks for.
 */
export function vouchesFor(e: Endorsement, verbs: readonly number[], terms: readonly (readonly number[])[]): boolean {
  if (!verbs.some((h) => e.actions.has(h))) return false;
  const named = e.named;
  if (named === null) return true;
  const line = e.line.sets[0]!;
  return terms.every((variants) => !variants.some((h) => line.has(h)) || variants.some((h) => named.has(h)));
}

/** An endorsement as JSON state: the index of its line among the session's sources, and hashes. */
export interface EndorsementState {
  readonly source: number;
  /** Confirmed by words: the turn's verbs and words. Absent when confirmed by step. */
  readonly actions?: readonly number[];
  readonly named?: readonly number[];
}

export function endorsementState<S extends ConfirmableSource>(e: Endorsement<S>, sources: readonly S[]): EndorsementState {
  return e.named === null ? { source: sources.indexOf(e.line) } : { source: sources.indexOf(e.line), actions: [...e.actions], named: [...e.named] };
}

/**
 * An endorsement from state, its line among `sources` (by step when `named` is absent: its actions are the line's
 * words). `hashes` validates each list of hashes, `bad` refuses the rest (both throw, typed).
 */
export function endorsementFromState<S extends ConfirmableSource>(state: unknown, sources: readonly S[], hashes: (xs: unknown, what: string) => number[], bad: (what: string) => never): Endorsement<S> {
  const s = state as EndorsementState;
  if (typeof s !== 'object' || s === null || !Number.isSafeInteger(s.source) || sources[s.source] === undefined) bad('"endorsed.source" must index "sources"');
  const line = sources[s.source]!;
  if (s.named === undefined) return { line, actions: line.sets[0]!, named: null };
  return { line, actions: new Set(hashes(s.actions, '"endorsed.actions"')), named: new Set(hashes(s.named, '"endorsed.named"')) };
}
