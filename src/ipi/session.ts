import { DiagonalGaussian, logprobEntropy, RunningStats, shingles, shinglesUpTo, type RunningStatsState } from '../bindings/index.js';
import { describe, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { levelOf, LEVELS } from './calibration.js';
import { foldedLookAlikes, syntaxReadingsOf } from './breaks.js';
import { compactNumbers, entities, plainValueSpelling, spelledEmails, stringLeaves } from './entities.js';
import { foreignRequestVerbs } from './foreign-requests.js';
import { asksAfterLabel, asksReader, changeNounVerbs } from './line-requests.js';
import { withoutNegatedVerbs } from './negated-verbs.js';
import { ASKING_VERBS, SAME_ACTION, verbInflections, WRITE_VERBS } from './request-words.js';
import { NOUN_OR_VERB, userAsks, verbUses, type UserAsks } from './user-asks.js';
import { MAX_NAMES, MAX_PLANTED, plantedCalls, toolNameHash, toolNameKeys } from './planted-calls.js';
import { readToolName } from './tool-names.js';
import { TRACE_FEATURES, type TraceScorer } from './trace-model.js';
import type { ContentScorer } from './classifier.js';
import type { IpiReason, IpiRisk, Observation, SignalName, SignalReport, ToolCall } from './types.js';

/** What a session needs from its detector. */
export interface SessionContext {
  readonly content: ContentScorer;
  readonly trace: TraceScorer;
  readonly threshold: number;
  readonly warmup: number;
  readonly hiddenReference?: DiagonalGaussian;
  readonly probe?: { readonly weights: ArrayLike<number>; readonly bias: number };
}

/**
 * Bounds on what a session keeps, whatever its length: the passages of tool
 * results (oldest dropped first: an argument copied from a passage older than
 * the last MAX_SOURCES is no longer traced to it), the hashes of trusted text and
 * the word counts behind surprise (new words are no longer counted once full).
 */
/**
 * Bounds on what a session holds and on the work of one call. `tracedValues`: the
 * argument values and entities of a call traced to the passage each was copied from;
 * every value is still looked up, and one copied from a tool result beyond the first
 * `tracedValues` is charged the riskiest passage the session ever read (so padding a
 * call with harmless values cannot hide the attacker's).
 */
export const SESSION_LIMITS = Object.freeze({ sources: 1024, trustedHashes: 32_768, words: 32_768, tracedValues: 256, argumentText: 16_384 });

const SIGNALS: SignalName[] = ['content', 'provenance', 'surprise', 'entropy', 'hiddenState'];
const MAX_K = 3;
/** Argument text shorter than this is not scored for content (it is a name, an id, a channel). */
const MIN_CONTENT = 40;
/** Longest argument value traced as a whole. */
const MAX_TRACED = 300;
/** The longest value or turn whose look-alike letters are folded (a long email body): past it, read as written. */
const FOLDED_VALUE_LIMIT = 65_536;

/** One passage of an untrusted tool result: its score and word shingles (k = 1..3). Hashes only, never its text. */
interface Source {
  readonly tool?: string;
  readonly score: number;
  readonly context: number; // the score of the window around it
  readonly segment: number; // the score of the carrier string holding it (its own score where none does)
  readonly result: number; // which tool result it came from (count of results observed before it)
  readonly request: boolean; // the line asks its reader for a change (see asksReader)
  readonly calls: readonly number[]; // tools its result names in call syntax, as toolNameHash of each toolNameKeys form (see plantedCalls)
  readonly everyCall: boolean; // its result names more tools in the syntax only calls use than are kept: taken to name every tool (see plantedCalls)
  sets: readonly ReadonlySet<number>[]; // set by #addSources for a passage it keeps or remembers as lost; never changed after (a repeated line shares them)
}

/**
 * A source as `observe` and `resume` make it: one shape for every source (tool undefined
 * when not named; a spread had cost a third of observe), made by a constructor, not an
 * object literal. V8 moves a literal's allocation site to the old generation once most
 * of what it makes lives long, as a long session's 1,024 sources do; every later
 * session's sources were then made there, and each scavenge found their sets live
 * through them and copied them (`observe` p99 7–12 ms after such a session, 1.4 ms
 * made by a constructor; decision 103).
 */
class ObservedSource implements Source {
  sets: readonly ReadonlySet<number>[] = NO_SETS;
  constructor(
    readonly tool: string | undefined,
    readonly score: number,
    readonly context: number,
    readonly segment: number,
    readonly result: number,
    readonly request: boolean,
    readonly calls: readonly number[],
    readonly everyCall: boolean,
  ) {}
}

/** A session's state as JSON: hashes and statistics, never the text it saw (see `IpiSession.toJSON`). */
export interface SessionState {
  /**
   * 2 since a source may carry `everyCall`: a build that reads only version 1 refuses it, typed, rather than
   * resume without what it cannot read. Version 1 is read as before.
   */
  readonly v: 1 | 2;
  readonly id: string;
  readonly calls: number;
  readonly results: number;
  readonly firstRiskyCall: number;
  /** The highest passage score the session ever read (passages may have been dropped since); optional in state written before it. */
  readonly peakRisk?: number;
  /** What the user's words so far ask for (the `askedRead` feature); optional in state written before it. */
  readonly asked?: { readonly question: boolean; readonly change: boolean; readonly unsure?: boolean };
  /** Per k, [hash, risk] of the risky passages dropped (see IpiSession); optional in state written before it. */
  readonly lost?: readonly (readonly (readonly [number, number])[])[];
  readonly sources: readonly { readonly tool?: string; readonly score: number; readonly context: number; readonly segment?: number; readonly result: number; readonly request?: boolean; readonly calls?: readonly number[]; readonly everyCall?: boolean; readonly sets: readonly (readonly number[])[] }[];
  readonly trusted: readonly (readonly number[])[];
  /** The word hashes of the user's turns alone (see IpiSession); optional in state written before it, which reads the trusted words instead. */
  readonly userWords?: readonly number[];
  readonly words: readonly (readonly [number, number])[];
  readonly total: number;
  readonly baseline: RunningStatsState;
}

/**
 * One agent session: what it has seen (trusted system/user text, untrusted tool
 * results, passage by passage) and a running baseline per signal. `evaluate` is
 * the pre-tool-call hot path: it computes what the trace model reads about the
 * pending call in its session and scores it.
 */
export class IpiSession {
  readonly id: string;
  readonly #ctx: SessionContext;
  #sources: Source[] = [];
  /**
   * Derived from #sources, so that a call costs the same late in a long session:
   * per shingle length, how many sources hold each hash (a value absent from it was
   * copied from none), the sources at low or above (the only ones affinity reads),
   * and the session's and the latest result's highest passage score.
   */
  readonly #held: Map<number, number>[] = [new Map(), new Map(), new Map()];
  /**
   * Shingle hashes of risky passages (\`low\` or above) the session has dropped, with
   * the highest risk of a passage that held each, at most trustedHashes per k: a value
   * copied from an injection pushed out by a flood is still traced to it.
   */
  readonly #lost: Map<number, number>[] = [new Map(), new Map(), new Map()];
  #risky: Source[] = [];
  /** The highest passage score ever read (the session's risk), not the highest still held: eviction never lowers it. */
  #peakRisk = 0;
  #recentRisk = 0;
  readonly #trusted: Set<number>[] = [new Set(), new Set(), new Set()];
  /**
   * The words of the user's turns alone (and their uses as verbs), at most trustedHashes: what names a tool or its
   * verb as asked for. A system prompt lists the agent's tools; its words would make every tool trusted. Null in
   * state written before it: the trusted words (system and user) are read instead, as they were.
   */
  #userWords: Set<number> | null = new Set();
  readonly #baseline: RunningStats;
  /** Streaming word counts of trusted context and earlier calls, for surprise. */
  readonly #counts = new Map<number, number>();
  #total = 0;
  #calls = 0;
  #results = 0;
  #firstRiskyCall = -1;
  /** What the user's own words ask for so far (see `userAsks`). */
  #userAsked: UserAsks = { question: false, change: false, unsure: false };
  #ended = false;
  lastUsed = 0;

  constructor(id: string, ctx: SessionContext, baseline = new RunningStats(SIGNALS.length)) {
    this.id = id;
    this.#ctx = ctx;
    this.#baseline = baseline;
  }

  get calls(): number {
    return this.#calls;
  }

  /** Tool results observed: state with fewer is older. */
  get results(): number {
    return this.#results;
  }

  /** Whether the session holds passages of tool results: what starting it afresh would lose. */
  get readUntrusted(): boolean {
    return this.#sources.length > 0;
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Record content the agent saw (checked by DetectorSession). Tool results are untrusted and scored passage by passage. */
  observe(observation: Observation): void {
    this.#assertLive();
    const { role, content } = observation;
    if (role === 'tool') {
      // Passage by passage: a value copied from the injected paragraph of an email
      // is suspect, a value from its harmless header is not.
      // Counted once it is read: a result the core refuses (past its size limit) changes nothing.
      const result = this.#results;
      const added: Source[] = [];
      // The result's own syntax is matched in each of its readings, with what renders as nothing dropped.
      const syntax = syntaxReadingsOf(content);
      const found = syntax.map(plantedCalls);
      const inCalls = new Set(found.flatMap((f) => f.calls));
      // Past the names kept, a result that names tools in the syntax only calls use names every tool: decoy calls
      // written first must not push the real one out. Objects that data shapes so too fill what is left, first come.
      const everyCall = new Set([...inCalls].map((name) => toolNameKeys(name)[0])).size > MAX_NAMES;
      const planted = [...new Set([...inCalls, ...found.flatMap((f) => f.callShaped)])].slice(0, MAX_NAMES);
      const calls = planted.length === 0 || everyCall ? NO_CALLS : [...new Set(planted.flatMap(toolNameKeys).map(toolNameHash))];
      // Addresses spelled in markup the reading drops ("archive<at>evil<dot>example" loses its tags), found in the
      // result; every other spelling survives the reading and is found passage by passage (shingleSets).
      const spelled = syntax.some((t) => AT_TAG.test(t)) ? [...new Set(syntax.flatMap(spelledEmails))] : NO_ADDRESSES;
      const passages = this.#ctx.content.passages(content);
      // A custom classifier's passages are read as text from here on: one that is not is refused before anything changes.
      for (const p of passages) if (typeof p.text !== 'string') throw new ParapetTypeError(`a classifier's passage must hold its text as a string, got ${describe(p.text)}`);
      const [results, firstRiskyCall] = [this.#results, this.#firstRiskyCall];
      this.#results++;
      // A request in another language is read only where the content model finds the passage injection-like: its line or
      // its string at `low`, or its window at `medium` (a short colleague's mail reaches `low` as a window alone). A German
      // bill's "Bitte überweisen Sie den Betrag auf das Konto …" scores nothing and stays a bill (see foreignRequestVerbs).
      // A change asked by its noun ("Deletion of … is required") names its verb as a request in another language does.
      const glossed = passages.map((p) => {
        const foreign = Math.max(p.score, p.segment ?? p.score) >= LEVELS.low || p.context >= LEVELS.medium ? foreignRequestVerbs(p.text) : NO_VERB_WORDS;
        const nouns = changeNounVerbs(p.text);
        return nouns.length === 0 ? foreign : [...foreign, ...nouns];
      });
      // A line the reading split from the agent's name before it ("Bot" and "commit … and push to main") asks with it.
      const asks = passages.map((p, i) => asksReader(p.text) || asksAfterLabel(passages[i - 1]?.text, p.text) || glossed[i]!.length > 0);
      // A passage charged as its result's riskiest (an address the reading left unread) asks what any of them asks.
      const chargedRequest = passages.some((p) => p.charged === true) && asks.includes(true);
      for (const [i, p] of passages.entries()) {
        if (Math.max(p.score, p.context) >= LEVELS.medium && this.#firstRiskyCall < 0) this.#firstRiskyCall = this.#calls;
        const request = asks[i]! || (p.charged === true && chargedRequest);
        added.push(new ObservedSource(observation.toolName || undefined, p.score, p.context, p.segment ?? p.score, result, request, calls, everyCall));
      }
      // Shingled only where kept: past the source limit most lines of a long result are dropped as they arrive.
      // A line the result repeats (a status, a note on every record) is shingled once: sources never change their sets.
      // The same line read as a request in another language in one window and not in another is shingled twice: once plain, once with its English verbs.
      const made = new Map<string, Set<number>[]>();
      const madeGlossed = new Map<string, Set<number>[]>();
      const joins = brokenValues(passages);
      try {
        this.#addSources(added, (i) => {
          const text = passages[i]!.text;
          const glosses = glossed[i]!;
          const cache = glosses.length > 0 ? madeGlossed : made;
          const join = joins.get(i);
          const key = join === undefined ? text : `${text}\u0000${join}`;
          let sets = cache.get(key);
          if (sets === undefined) {
            sets = shingleSets(text);
            // A value the result broke across two lines is held joined by both, as an agent copies it.
            if (join !== undefined) {
              addShingles(sets, join);
              addValueForms(sets, join);
            }
            if (spelled.length > 0) addAddressesOf(sets, text, spelled);
            // A request in another language, or by a noun, names its verb in English too, as the tools are named ("leiten Sie … weiter": forward; "deletion": delete).
            for (const verb of glosses) sets[0]!.add(wordHash(verb));
            cache.set(key, sets);
          }
          return sets;
        });
      } catch (cause) {
        // A passage a custom classifier gave that cannot be read: the result is not counted, as one the core refuses.
        [this.#results, this.#firstRiskyCall] = [results, firstRiskyCall];
        throw cause;
      }
    } else {
      // What the turn forbids ("draft replies, don't post them") is none of what it asks for.
      const asking = withoutNegatedVerbs(content);
      if (role === 'user') {
        const asked = userAsks(asking);
        const was = this.#userAsked;
        this.#userAsked = { question: was.question || asked.question, change: was.change || asked.change, unsure: was.unsure === true || asked.unsure === true };
      }
      const sets = shingleSets(asking);
      // With look-alike letters folded too, as a call's values are traced (see #provenance): a value the user wrote in
      // Cyrillic or Greek letters is still theirs.
      const folded = foldedLookAlikes(asking, FOLDED_VALUE_LIMIT, true);
      if (folded !== asking) for (const [i, s] of shingleSets(folded).entries()) for (const h of s) sets[i]!.add(h);
      sets.forEach((s, i) => addBounded(this.#trusted[i]!, s, SESSION_LIMITS.trustedHashes));
      // A verb asked in another language counts as its English word would: as a verb use where the word is as often a noun.
      const verbsUsed = [...verbUses(asking).map(verbUseHash), ...foreignRequestVerbs(asking).map((verb) => (NOUN_OR_VERB.has(verb) ? verbUseHash(verb) : wordHash(verb)))];
      addBounded(this.#trusted[0]!, verbsUsed, SESSION_LIMITS.trustedHashes);
      if (role === 'user' && this.#userWords) {
        addBounded(this.#userWords, sets[0]!, SESSION_LIMITS.trustedHashes);
        addBounded(this.#userWords, verbsUsed, SESSION_LIMITS.trustedHashes);
      }
      this.#count(sets[0]!);
    }
  }

  /** Assess a pending call (checked by DetectorSession; no approval step: see IpiDetector for modes). */
  evaluate(call: ToolCall, mode: 'warn' | 'block' | 'hil'): IpiRisk {
    this.#assertLive();
    const started = performance.now();
    // First, so that a call JSON cannot write out (a cycle, a bigint) is refused, typed, before anything is read.
    let json: string;
    try {
      json = JSON.stringify({ name: call.name, arguments: call.arguments ?? null });
    } catch (cause) {
      throw new ParapetTypeError(`"call.arguments" must be a value JSON can write out (${cause instanceof Error ? cause.message : String(cause)})`, { cause });
    }
    const x = new Float64Array(TRACE_FEATURES.length);
    const f = (name: (typeof TRACE_FEATURES)[number], v: number): void => void (x[TRACE_FEATURES.indexOf(name)] = v);

    // Content: the call's argument text, not its JSON: a short structured call is not prose.
    const leaves = stringLeaves(call.arguments);
    const argText = leaves.map((l) => l.value).filter((v) => v.length >= 3).join('\n').slice(0, SESSION_LIMITS.argumentText);
    const content = argText.length >= MIN_CONTENT ? this.#ctx.content.score(argText) : 0;
    f('content', content);
    // A result that holds this very call in an agent's call syntax asked for it, as a request line does.
    const named = toolNameKeys(call.name).map(toolNameHash);
    const { verb, terms, writes, joined } = readToolName(call.name);
    const askedRead = this.#userAsked.question && !this.#userAsked.change;
    // The words a line may use for the tool's verb when it asks for this write (its synonyms too): read by #provenance and #requested.
    // Any verb a request asks a change by, for a tool that writes ("decline" for decline_event, "revoke", "archive").
    const writeVerbs = verb !== undefined && (WRITE_VERBS.has(verb) || (writes && ASKING_VERBS.has(verb))) ? verbHashes(verb) : NO_VERBS;
    // A line may explain a write the user handed over (see #provenance); after a user who asked only for an answer, none does.
    const explainingVerbs = askedRead ? NO_VERBS : writeVerbs;
    const prov = this.#provenance(leaves, named, explainingVerbs);
    f('provenance', prov.value);
    f('copiedUntrusted', prov.copied);
    f('copiedRisk', prov.copiedRisk);
    f('copiedContext', prov.copiedContext);
    f('copiedSegment', prov.copiedSegment);
    f('argsTrusted', prov.trustedShare);
    f('novelEntity', prov.novel ? 1 : 0);
    // Each term and the name written whole, singular or plural ("call UnlockDoors" names UnlockDoor): hashed once for
    // toolTrusted and affinity, which read them alike.
    const whole = joined.flatMap((name) => [wordHash(name), wordHash(`${name}s`)]);
    const termHashes = terms.map((t) => [wordHash(t), wordHash(`${t}s`)]);
    // Whether the user named the tool decides affinity and requested too: read once.
    const toolTrusted = this.#termsTrusted(termHashes, whole);
    const affinity = toolTrusted ? { value: 0 } : this.#affinity(termHashes, whole);
    f('affinity', affinity.value);
    f('toolTrusted', toolTrusted ? 1 : 0);
    const sessionRisk = this.#peakRisk;
    f('sessionRisk', sessionRisk);
    f('recentRisk', this.#recentRisk);
    f('afterRisky', this.#firstRiskyCall < 0 ? 0 : 1 / (1 + this.#calls - this.#firstRiskyCall));
    f('write', writes ? 1 : 0);
    const words = distinct(shingles(json, 1, { mode: 'json' }));
    const surprise = this.#surprise(words);
    f('surprise', Math.min(1, surprise));
    f('noArgs', leaves.length === 0 ? 1 : 0);
    f('askedRead', askedRead ? 1 : 0);
    f('copiedRequest', prov.copiedRequest);
    const verbTrusted = this.#verbTrusted(verb);
    // A call the result wrote out asks for itself even where the user's words name the tool: they ask for the tool, not for this call.
    const requested = this.#sources.some((src) => namesCall(src, named)) ? 1 : toolTrusted ? 0 : this.#requested(verb, writeVerbs, terms, whole, verbTrusted);
    f('requested', requested);
    f('verbTrusted', verbTrusted ? 1 : 0);
    // The change only a tool result asked for: the pattern of an injection obeyed, which pairwise products alone weigh too little.
    const requestedOnly = writes && !verbTrusted ? requested : 0;
    f('requestedOnly', requestedOnly);
    // The same after a user who asked only for an answer: three features at once, which pairwise products weigh too little.
    f('requestedAfterRead', askedRead ? requestedOnly : 0);

    const trace = this.#ctx.trace;
    let score = trace.score(x);
    // A write only a tool result asked for, after a user who asked only for an answer, is an obeyed injection's pattern:
    // `medium` at least, whatever the model weighs (decision 110), where the reading of the user's turns is sure.
    // No benign call of the training sessions reads so.
    const unasked = x[REQUESTED_AFTER_READ]! >= UNASKED_WRITE && this.#userAsked.unsure !== true;
    if (unasked) score = Math.max(score, LEVELS.medium);
    const values: Partial<Record<SignalName, number>> = { content, provenance: Math.max(prov.value, affinity.value), surprise };
    if (call.logprobs && call.logprobs.length > 0) values.entropy = call.logprobs.reduce((a, row) => a + logprobEntropy(row as number[]), 0) / call.logprobs.length;
    if (call.hiddenState) values.hiddenState = this.#hidden(call.hiddenState);
    // A caller's probe is a probability the caller vouches for: it can raise the score, never lower it.
    if (this.#ctx.probe && values.hiddenState !== undefined) score = Math.max(score, values.hiddenState);

    const warm = this.#calls >= this.#ctx.warmup;
    const signals: Partial<Record<SignalName, SignalReport>> = {};
    const zScores: Partial<Record<SignalName, number>> = {};
    SIGNALS.forEach((name, slot) => {
      const value = values[name];
      if (value === undefined) return;
      const z = warm && this.#baseline.count(slot) >= 2 ? this.#baseline.zScore(value, slot) : undefined;
      if (z !== undefined) zScores[name] = z;
      const unusual = z !== undefined && z > this.#ctx.threshold;
      const detail = name === 'provenance' ? (prov.value >= affinity.value ? prov.detail : affinity.detail) : undefined;
      signals[name] = { value, ...(z !== undefined ? { zScore: z } : {}), flagged: unusual, ...(detail ? { detail } : {}) };
    });
    const level = levelOf(score);
    const flagged = level === 'medium' || level === 'high';
    // A flagged call is not what this session does: it joins neither the baseline nor
    // the counts behind surprise, or repeating an attack call would make it look usual.
    if (!flagged) {
      this.#baseline.pushVector(SIGNALS.map((n, slot) => values[n] ?? this.#baseline.mean(slot)));
      this.#count(words);
    }
    this.#calls++;
    const reasons = flagged ? reasonsFor(trace.contributions?.(x) ?? x, x, { prov, affinity, content, sessionRisk }, unasked) : [];
    return {
      score, level, flagged, zScores, signals, reasons,
      action: flagged && mode !== 'warn' ? 'block' : 'allow',
      latencyMs: performance.now() - started,
    };
  }

  /**
   * Append sources and keep the derived index in step. Beyond SESSION_LIMITS.sources
   * the least risky go first (by the highest of their scores), the oldest first among
   * equals: otherwise one long result could push its own injection out of the
   * session with a thousand lines after it that read less like one.
   */
  #addSources(added: readonly Source[], setsOf?: (i: number) => Set<number>[]): void {
    const all = [...this.#sources, ...added];
    const over = all.length - SESSION_LIMITS.sources;
    // The least risky go first, the oldest first among equals (a stable sort keeps arrival order).
    const victims: ReadonlySet<Source> = over > 0 ? new Set([...all].sort((a, b) => riskOf(a) - riskOf(b)).slice(0, over)) : NO_SOURCES;
    // A source dropped as it arrives is never counted in: its sets are needed only if it is remembered as lost.
    // Made before the session changes, so that a throw leaves it as it was.
    if (setsOf) added.forEach((src, i) => {
      if (!victims.has(src) || riskOf(src) >= LEVELS.low) src.sets = setsOf(i);
    });
    for (const src of added) this.#peakRisk = Math.max(this.#peakRisk, src.score, src.context);
    this.#sources = over > 0 ? all.filter((src) => !victims.has(src)) : all;
    const arrived = victims.size > 0 ? new Set(added) : NO_SOURCES;
    const bump = (src: Source, by: number): void => {
      src.sets.forEach((set, k) => {
        const held = this.#held[k]!;
        for (const h of set) {
          const n = (held.get(h) ?? 0) + by;
          if (n > 0) held.set(h, n);
          else held.delete(h);
        }
      });
    };
    for (const src of added) if (!victims.has(src)) bump(src, 1);
    for (const src of victims) {
      if (!arrived.has(src)) bump(src, -1);
      const lostRisk = riskOf(src);
      if (lostRisk < LEVELS.low) continue;
      src.sets.forEach((set, k) => {
        const lost = this.#lost[k]!;
        for (const h of set) if (lost.has(h) || lost.size < SESSION_LIMITS.trustedHashes) lost.set(h, Math.max(lost.get(h) ?? 0, lostRisk));
      });
    }
    this.#risky = this.#sources.filter((src) => Math.max(src.score, src.context) >= LEVELS.low);
    let recentRisk = 0;
    for (const src of this.#sources) if (src.result === this.#results - 1) recentRisk = Math.max(recentRisk, src.score, src.context);
    this.#recentRisk = recentRisk;
  }

  /**
   * An ended session refuses use: what it saw is gone, so a call assessed on it
   * would be judged without the injection it may follow, and an observation would
   * be lost without a word.
   */
  #assertLive(): void {
    if (this.#ended) throw new ParapetStateError(`session "${this.id}" has ended (end(), resume() of the same id, or dropped as idle or beyond maxSessions): take a new handle from session(id), or resume saved state; a session dropped after it read tool results is refused by id until resume(state) or endSession(id)`, 'destroyed');
  }

  /** Forget everything; later observe and evaluate calls throw (code `destroyed`). */
  end(): void {
    this.#ended = true;
    this.#sources = [];
    this.#risky = [];
    this.#held.forEach((m) => m.clear());
    this.#lost.forEach((m) => m.clear());
    this.#counts.clear();
    this.#trusted.forEach((s) => s.clear());
    this.#userWords?.clear();
    this.#baseline.destroy();
  }

  /** The session's state for another worker: hashes and statistics only (versioned). */
  toJSON(): SessionState {
    this.#assertLive();
    return {
      v: 2, id: this.id, calls: this.#calls, results: this.#results, firstRiskyCall: this.#firstRiskyCall, peakRisk: this.#peakRisk, asked: { ...this.#userAsked }, lost: this.#lost.map((m) => [...m]),
      sources: this.#sources.map((s) => ({ ...(s.tool ? { tool: s.tool } : {}), score: s.score, context: s.context, segment: s.segment, result: s.result, ...(s.request ? { request: true } : {}), ...(s.calls.length > 0 ? { calls: [...s.calls] } : {}), ...(s.everyCall ? { everyCall: true } : {}), sets: s.sets.map((set) => [...set]) })),
      trusted: this.#trusted.map((set) => [...set]),
      ...(this.#userWords ? { userWords: [...this.#userWords] } : {}),
      words: [...this.#counts],
      total: this.#total,
      baseline: this.#baseline.toJSON(),
    };
  }

  /** A session resumed from `toJSON` output; anything malformed is refused, typed. */
  static fromJSON(state: unknown, ctx: SessionContext): IpiSession {
    const s = state as SessionState;
    const bad = (what: string): never => {
      throw new ParapetStateError(`session state: ${what}`, 'state-version');
    };
    if (typeof s !== 'object' || s === null) bad('not an object');
    if (s.v !== 1 && s.v !== 2) bad(`version ${JSON.stringify(s.v)} is not 1 or 2`);
    if (typeof s.id !== 'string' || s.id.length === 0) bad('"id" must be a non-empty string');
    for (const k of ['calls', 'results', 'total'] as const) if (!Number.isSafeInteger(s[k]) || s[k] < 0) bad(`"${k}" must be a non-negative integer`);
    if (!Number.isSafeInteger(s.firstRiskyCall) || s.firstRiskyCall < -1) bad('"firstRiskyCall" must be an integer ≥ -1');
    const hashes = (xs: unknown, max: number, what: string): number[] => {
      if (!Array.isArray(xs) || xs.length > max || !xs.every((h) => Number.isInteger(h) && h >= 0 && h <= 0xffffffff)) bad(`${what} must be at most ${max} u32 hashes`);
      return xs as number[];
    };
    if (!Array.isArray(s.sources) || s.sources.length > SESSION_LIMITS.sources) bad(`"sources" must be an array of at most ${SESSION_LIMITS.sources}`);
    if (!Array.isArray(s.trusted) || s.trusted.length !== MAX_K) bad(`"trusted" must hold ${MAX_K} hash lists`);
    if (!Array.isArray(s.words) || s.words.length > SESSION_LIMITS.words) bad(`"words" must be at most ${SESSION_LIMITS.words} pairs`);
    const slots = (s.baseline as { slots?: unknown } | null)?.slots;
    if (!Array.isArray(slots) || slots.length !== SIGNALS.length) bad(`"baseline" must hold ${SIGNALS.length} slots, one per signal`);
    const session = new IpiSession(s.id, ctx, RunningStats.fromJSON(s.baseline));
    session.#calls = s.calls;
    session.#results = s.results;
    session.#total = s.total;
    session.#firstRiskyCall = s.firstRiskyCall;
    if (s.peakRisk !== undefined && !unit(s.peakRisk)) bad('"peakRisk" must be a number in [0, 1]');
    session.#peakRisk = s.peakRisk ?? 0;
    if (s.asked !== undefined) {
      const a = s.asked as unknown as Record<string, unknown> | null;
      if (typeof a !== 'object' || a === null || typeof a.question !== 'boolean' || typeof a.change !== 'boolean' || (a.unsure !== undefined && typeof a.unsure !== 'boolean')) bad('"asked" must be { question, change, unsure? }, each a boolean');
      session.#userAsked = { question: s.asked.question, change: s.asked.change, unsure: s.asked.unsure === true };
    }
    session.#addSources(s.sources.map((src, i) => {
      if (typeof src !== 'object' || src === null || !unit(src.score) || !unit(src.context) || (src.segment !== undefined && !unit(src.segment)) || !Number.isSafeInteger(src.result) || (src.tool !== undefined && typeof src.tool !== 'string') || (src.request !== undefined && typeof src.request !== 'boolean') || (src.calls !== undefined && !(Array.isArray(src.calls) && src.calls.length <= MAX_PLANTED && src.calls.every((h) => Number.isInteger(h) && h >= 0 && h <= 0xffffffff))) || (src.everyCall !== undefined && typeof src.everyCall !== 'boolean') || !Array.isArray(src.sets) || src.sets.length !== MAX_K) bad(`"sources[${i}]" is malformed`);
      const source = new ObservedSource(src.tool, src.score, src.context, src.segment ?? src.score, src.result, src.request === true, src.calls && src.calls.length > 0 ? [...src.calls] : NO_CALLS, src.everyCall === true);
      source.sets = src.sets.map((set, k) => new Set(hashes(set, 4096, `"sources[${i}].sets[${k}]"`)));
      return source;
    }));
    s.trusted.forEach((set, k) => hashes(set, SESSION_LIMITS.trustedHashes, `"trusted[${k}]"`).forEach((h) => session.#trusted[k]!.add(h)));
    session.#userWords = s.userWords === undefined ? null : new Set(hashes(s.userWords, SESSION_LIMITS.trustedHashes, '"userWords"'));
    for (const pair of s.words) {
      if (!Array.isArray(pair) || pair.length !== 2 || !Number.isInteger(pair[0]) || !Number.isSafeInteger(pair[1]) || pair[1] < 1) bad('"words" must be [hash, count] pairs');
      session.#counts.set(pair[0], pair[1]);
    }
    if (s.lost !== undefined) {
      if (!Array.isArray(s.lost) || s.lost.length !== MAX_K) bad(`"lost" must hold ${MAX_K} lists`);
      s.lost.forEach((pairs, k) => {
        if (!Array.isArray(pairs) || pairs.length > SESSION_LIMITS.trustedHashes) bad(`"lost[${k}]" must be at most ${SESSION_LIMITS.trustedHashes} pairs`);
        for (const pair of pairs) {
          if (!Array.isArray(pair) || pair.length !== 2 || !Number.isInteger(pair[0]) || pair[0] < 0 || pair[0] > 0xffffffff || !unit(pair[1])) bad(`"lost[${k}]" must be [u32 hash, risk in [0, 1]] pairs`);
          session.#lost[k]!.set(pair[0], pair[1]);
        }
      });
    }
    return session;
  }

  /**
   * Provenance: argument values (whole, and the entities inside them) that appear
   * verbatim in an untrusted passage and never in trusted text. Benign calls copy
   * from tool results all the time (paying the IBAN on a bill); what marks an attack
   * is copying from a passage that reads like an injection.
   *
   * A value is charged with every passage that holds it, unless a line explains the
   * whole call: it asks its reader for a change, names the tool's verb
   * (`explainingVerbs`: empty where no line may explain it), holds every value the
   * call copied from tool results, and no line that holds them all is riskier. The
   * call is then what such lines asked for, and it is charged with the lines that hold
   * every value alone. A colleague's "can you add Mia to #team-backend?" explains
   * add_member(Mia, team-backend) though an injected line of the same message names
   * the same channel (decision 104).
   */
  #provenance(leaves: readonly { path: string; value: string }[], named: readonly number[], explainingVerbs: readonly number[]): { value: number; copied: number; copiedRisk: number; copiedContext: number; copiedSegment: number; copiedRequest: number; trustedShare: number; novel: boolean; detail?: string } {
    let best = 0;
    let copied = 0;
    let copiedRisk = 0;
    let copiedContext = 0;
    let copiedSegment = 0;
    let copiedRequest = 0;
    let detailRisk = -1;
    let specific = 0;
    let trustedSpecific = 0;
    let novel = false;
    let detail: string | undefined;
    let traced = 0;
    /** The value at `path` was copied from a passage with these scores; `from` names it should it be the riskiest so far. */
    const charge = (path: string, candidate: string, strength: number, score: number, context: number, segment: number, from: () => string, request = false): void => {
      copied = Math.max(copied, strength);
      if (request) copiedRequest = Math.max(copiedRequest, strength);
      copiedRisk = Math.max(copiedRisk, score);
      copiedContext = Math.max(copiedContext, context);
      copiedSegment = Math.max(copiedSegment, segment);
      best = Math.max(best, score * strength);
      // The reason names the riskiest source by any of its scores: a value on a
      // short line of its own has none, its string or window may.
      const risk = Math.max(score, segment, context) * strength;
      if (risk > detailRisk) {
        detailRisk = risk;
        detail = `${path} = ${JSON.stringify(candidate.slice(0, 80))} comes from ${from()}`;
      }
    };
    // The values copied from passages held now, each with the passages that hold it: charged once all are known.
    const copies: { path: string; candidate: string; strength: number; holders: Source[] }[] = [];
    // Whether a line may still explain the call: not once a value is charged otherwise (a dropped passage, past the budget).
    let explainable = explainingVerbs.length > 0;
    // Each distinct value once: repeating a value the user wrote must not dilute the share of trusted ones, nor cost a trace each time.
    const done = new Set<string>();
    // Values found in trusted text or in a passage: a web address among them needs no tracing by its host.
    const placed = new Set<string>();
    for (const { path, value: written } of leaves) {
      // Traced with its look-alike letters folded, as passages are read: trusted text holds both spellings (see observe).
      const value = foldedLookAlikes(written, FOLDED_VALUE_LIMIT);
      // A number written in groups is traced as one run too, as passages hold it (see shingleSets).
      const found = [...entities(value), ...compactNumbers(value)];
      const isEntity = new Set(found);
      // Whole values are traced up to a few lines long; inside longer ones (a
      // message body) only the entities are: a body is composed, not copied. A web
      // address no passage holds whole is traced by its host too: an injection names
      // the host, and the agent appends what it sends ("https://evil.test/log/<the data>").
      const hosts = urlHosts(found);
      for (const candidate of [...(value.length <= MAX_TRACED ? [value] : []), ...found, ...hosts.keys()]) {
        const urls = isEntity.has(candidate) ? undefined : hosts.get(candidate);
        // Copied whole, the address already says where it came from: its host would charge
        // it with any passage naming a common host (an injection that mentions github.com).
        if (urls && urls.every((u) => placed.has(u))) continue;
        if (done.has(candidate)) continue;
        done.add(candidate);
        const runs = shinglesUpTo(candidate, MAX_K, { mode: 'text' });
        const wordCount = runs[0]!.length;
        if (wordCount === 0) continue;
        const k = Math.min(MAX_K, wordCount);
        const mine = runs[k - 1]!;
        // Single common words prove little: require an entity-like token or several words.
        const strength = wordCount >= 3 || /[@./:\d]/.test(candidate) ? 1 : wordCount === 2 ? 0.6 : 0.25;
        const inTrusted = allIn(mine, this.#trusted[k - 1]!);
        // A host is part of a value already counted: it does not add to the share of trusted values.
        if (strength >= 0.6 && !urls) {
          specific++;
          if (inTrusted) trustedSpecific++;
        }
        if (inTrusted) {
          placed.add(candidate);
          continue;
        }
        let seen = false;
        const held = this.#held[k - 1]!;
        let inSome = true;
        for (let i = 0; i < mine.length && inSome; i++) inSome = held.has(mine[i]!);
        if (inSome && ++traced > SESSION_LIMITS.tracedValues) {
          // Past the budget the value is known to be copied from some tool result, not from which: assume the riskiest.
          const peak = this.#peakRisk;
          explainable = false;
          charge(path, candidate, strength, peak, peak, peak, () => `a tool result, one of more than ${SESSION_LIMITS.tracedValues} copied values: charged the riskiest passage read (${peak.toFixed(2)})`);
          continue;
        }
        if (inSome) {
          const holders: Source[] = [];
          for (const src of this.#sources) if (allIn(mine, src.sets[k - 1]!)) holders.push(src);
          if (holders.length > 0) {
            seen = true;
            copies.push({ path, candidate, strength, holders });
          }
        }
        if (!seen) {
          // Copied from a risky passage the session has dropped: the least risk any of its hashes was recorded with.
          const lost = this.#lost[k - 1]!;
          let risk = lost.size > 0 ? 1 : 0;
          for (let i = 0; i < mine.length && risk > 0; i++) risk = Math.min(risk, lost.get(mine[i]!) ?? 0);
          if (risk > 0) {
            seen = true;
            explainable = false; // no line held now holds this value
            charge(path, candidate, strength, risk, risk, risk, () => `a passage the session has dropped (it scored ${risk.toFixed(2)})`);
          }
        }
        if (seen) placed.add(candidate);
        if (!seen && strength === 1 && isEntity.has(candidate)) novel = true;
      }
    }
    const by = explainable ? this.#explainingLines(copies, explainingVerbs) : undefined;
    const from = (src: Source) => (): string => `${src.tool ?? 'a tool result'} (that line scores ${src.score.toFixed(2)}, its string ${src.segment.toFixed(2)}, its window ${src.context.toFixed(2)})${by ? ', a line that holds every value the call copied' : ''}`;
    for (const { path, candidate, strength, holders } of copies) {
      for (const src of by ?? holders) charge(path, candidate, strength, src.score, src.context, src.segment, from(src), src.request || namesCall(src, named));
    }
    const trustedShare = specific === 0 ? 0 : trustedSpecific / specific;
    return { value: best, copied, copiedRisk, copiedContext, copiedSegment, copiedRequest, trustedShare, novel, ...(detail ? { detail } : {}) };
  }

  /**
   * The lines that explain a call copying `copies` (see #provenance): those that hold every
   * copied value, when one of the riskiest of them by its highest score asks its reader
   * for a change and holds a word of `verbs`. Undefined when no line holds every value, or
   * none of the riskiest asks for this call. All of them, not the one that asks: a plain line
   * that restates an injected order must not clear the order, which holds the same values.
   */
  #explainingLines(copies: readonly { holders: readonly Source[] }[], verbs: readonly number[]): Source[] | undefined {
    if (copies.length === 0) return undefined;
    // How many of the values each line holds, counted over the holders once: a call of 256 values each held by
    // 1,024 lines costs their sum, not their product.
    const held = new Map<Source, number>();
    for (const src of copies[0]!.holders) held.set(src, 0);
    for (const { holders } of copies) for (const src of holders) {
      const n = held.get(src);
      if (n !== undefined) held.set(src, n + 1);
    }
    const lines: Source[] = [];
    for (const [src, n] of held) if (n === copies.length) lines.push(src);
    let top = -1;
    for (const src of lines) top = Math.max(top, riskOf(src));
    // Any line at the top asks for this call: all of them are charged, so which of equals comes first cannot matter.
    for (const src of lines) if (riskOf(src) === top && src.request && verbs.some((h) => src.sets[0]!.has(h))) return lines;
    return undefined;
  }

  /**
   * What the call does, traced like a value: an injected passage that names the
   * tool's object ("collect the messages from all channels" before get_channels)
   * while the user did not name all of it. Attacks often begin with a call that copies nothing.
   */
  #affinity(variants: readonly number[][], whole: readonly number[]): { value: number; detail?: string } {
    if (variants.length === 0) return { value: 0 };
    let best = 0;
    for (const src of this.#risky) {
      const risk = Math.max(src.score, src.context);
      if (!namesTool(variants, whole, src.sets[0]!)) continue;
      best = Math.max(best, risk);
    }
    return best > 0 ? { value: best, detail: `the tool is what an injection-like passage asks for, not what the user asked (passage scores ${best.toFixed(2)})` } : { value: 0 };
  }

  /**
   * A line of a tool result asks its reader for this tool's action ("Please delete
   * the file…" before delete_file), in its words or a synonym's, and the user did not
   * name all of it: a call that copies nothing can still be what an injection asked.
   * 1 when the line names the tool (every term, or its name written whole: `namesTool`),
   * or names its verb while the user's
   * words name the rest ("review pull request 42", then "please merge it"); 0.5 when
   * it names only the verb ("send a link to Alice" before send_direct_message). Never
   * for the verb alone when the user named that verb or a synonym of it. (A result
   * that holds this very call in an agent's call syntax asks for it: see `evaluate`.)
   * `verbs`: the hashes of the tool's verb and its synonyms when the tool writes, else none.
   */
  #requested(verb: string | undefined, verbs: readonly number[], terms: readonly string[], whole: readonly number[], verbTrusted: boolean): number {
    if (terms.length === 0) return 0;
    const variants = terms.map((t) => [t, ...(SAME_ACTION[t] ?? [])].flatMap((w) => [wordHash(w), wordHash(`${w}s`)]));
    const asked = this.#askingWords();
    const userNamedVerb = verbs.length > 0 && verbTrusted;
    let best = 0;
    for (const src of this.#sources) {
      if (!src.request) continue;
      const line = src.sets[0]!;
      if (namesTool(variants, whole, line)) return 1;
      if (userNamedVerb || !verbs.some((h) => line.has(h))) continue;
      // The user named what the tool acts on (pull request 42) and the line only the action (merge it): together they name all of it.
      if (terms.length > 1 && terms[0] === verb && everyTermIn(variants.slice(1), asked)) return 1;
      best = VERB_ONLY;
    }
    return best;
  }

  /**
   * Whether the user's words hold the tool's verb or a synonym of it: "post the build
   * number in #releases" for send_message, "run the tests" for run_command. Weaker
   * than naming the tool (toolTrusted): the user asked for the action, not for what
   * it touches. A word that is as often a noun counts only where it is used as a
   * verb: "summarise the email from Anna" does not ask for send_email.
   */
  #verbTrusted(verb: string | undefined): boolean {
    if (verb === undefined) return false;
    const asked = this.#askingWords();
    return verbWords(verb).some((w) => asked.has(NOUN_OR_VERB.has(w) ? verbUseHash(w) : wordHash(w)));
  }

  /**
   * Whether the user's words name every term of the tool (send_email: send and email),
   * or write a name whose capitals join its terms (GmailSendEmail). Naming the object
   * alone is not asking for the action: "read my latest email" does not ask for
   * send_email, and an injected email that asks for a send would otherwise ride on
   * the user's word "email".
   */
  #termsTrusted(variants: readonly number[][], whole: readonly number[]): boolean {
    return variants.length > 0 && namesTool(variants, whole, this.#askingWords());
  }

  /**
   * The words that can ask for a tool: the user's turns. A system prompt names the agent's tools to describe them
   * (decision 101); a session resumed from state written before the user's words were kept apart reads the trusted
   * words, system and user, as it did.
   */
  #askingWords(): ReadonlySet<number> {
    return this.#userWords ?? this.#trusted[0]!;
  }

  /** Mean surprise in bits per word under add-one smoothed counts of what the session has seen. */
  #surprise(words: Uint32Array): number {
    if (words.length === 0) return 0;
    // Nothing seen yet: every word is new, as a word never seen is (1) once counts exist.
    if (this.#total === 0) return 1;
    const vocab = this.#counts.size + 1;
    let bits = 0;
    for (const w of words) bits += -Math.log2(((this.#counts.get(w) ?? 0) + 1) / (this.#total + vocab));
    return bits / words.length / Math.max(1, Math.log2(this.#total + vocab));
  }

  #count(words: Iterable<number>): void {
    for (const w of words) {
      const c = this.#counts.get(w);
      if (c === undefined && this.#counts.size >= SESSION_LIMITS.words) continue;
      this.#counts.set(w, (c ?? 0) + 1);
      this.#total++;
    }
  }

  #hidden(state: ArrayLike<number>): number {
    if (this.#ctx.probe) {
      const { weights, bias } = this.#ctx.probe;
      if (weights.length !== state.length) throw new ParapetTypeError(`"hiddenState" must have ${weights.length} entries`);
      let z = bias;
      for (let i = 0; i < state.length; i++) z += weights[i]! * state[i]!;
      return 1 / (1 + Math.exp(-z));
    }
    if (!this.#ctx.hiddenReference) return 0;
    return this.#ctx.hiddenReference.score(state);
  }
}

/** A score as state may hold it: a number in [0, 1] (not a string, boolean or array that coerces to one). */
function unit(x: unknown): boolean {
  return typeof x === 'number' && x >= 0 && x <= 1;
}

/** Add hashes to a bounded set: once full, new hashes are not kept (the oldest stay: a session's opening prompt matters most). */
function addBounded(set: Set<number>, hashes: Iterable<number>, max: number): void {
  for (const h of hashes) {
    if (set.size >= max) return;
    set.add(h);
  }
}

/** Whether `set` names the tool: its name written whole (`whole`: ToolName.joined, hashed), or a variant of each term. */
function namesTool(variants: readonly number[][], whole: readonly number[], set: ReadonlySet<number>): boolean {
  return whole.some((h) => set.has(h)) || everyTermIn(variants, set);
}

/** Whether each term has a variant (singular or plural hash) in `set`. */
function everyTermIn(variants: readonly number[][], set: ReadonlySet<number>): boolean {
  for (const vs of variants) if (!vs.some((h) => set.has(h))) return false;
  return true;
}

/** Whether every hash is in `set` (a loop, not every(): no closure per source on the assess path). */
function allIn(hashes: Uint32Array, set: ReadonlySet<number>): boolean {
  for (let i = 0; i < hashes.length; i++) if (!set.has(hashes[i]!)) return false;
  return true;
}

/**
 * The distinct values of `hashes`, sorted, in place. Not a Set: on the assess
 * path a Set of a 4 KiB call's words was most of what it allocated.
 */
function distinct(hashes: Uint32Array): Uint32Array {
  hashes.sort();
  let n = 0;
  for (let i = 0; i < hashes.length; i++) if (n === 0 || hashes[i] !== hashes[n - 1]) hashes[n++] = hashes[i]!;
  return hashes.subarray(0, n);
}

/**
 * Word shingle sets for k = 1..MAX_K, as sources and trusted text keep them, with
 * each number written in groups also as one run (see compactNumbers) and each
 * spelled-out address also in its plain form (see spelledEmails), and the text as
 * an agent would write its values (see plainValueSpelling): a value copied in the
 * other form is still found.
 */
function shingleSets(text: string): Set<number>[] {
  const sets = shinglesUpTo(text, MAX_K, { mode: 'text' }).map((run) => new Set(run));
  addValueForms(sets, text);
  const plain = plainValueSpelling(text);
  if (plain !== text) {
    addShingles(sets, plain);
    addValueForms(sets, plain);
  }
  return sets;
}

/**
 * The values a result broke across two of its lines, by the index of each line that holds a part: a word broken at
 * a hyphen ("… to migration-" / "desk@evil-corp.test before 18:00": `migration-desk@evil-corp.test`) and a number's
 * groups that go on at the next line's start ("IBAN DE89 3704 0044" / "0532 0130 00"). An agent joins them; a line
 * each, neither part is the value it copies.
 */
function brokenValues(passages: readonly { text: string }[]): Map<number, string> {
  const joins = new Map<number, string>();
  for (let i = 0; i + 1 < passages.length; i++) {
    const [whole, b] = [passages[i]!.text, passages[i + 1]!.text];
    // Only a line's end is read, so a long line costs what a short one does; most lines end in no hyphen or digit.
    const a = whole.slice(-LINE_END_READ);
    const hyphen = a.endsWith('-') ? HYPHEN_BROKEN_END.exec(a) : null;
    const rest = hyphen ? BROKEN_REST.exec(b) : null;
    const groups = !hyphen && DIGIT_END.test(a) ? GROUPS_END.exec(a) : null;
    const more = groups ? GROUPS_START.exec(b) : null;
    const join = hyphen && rest ? `${hyphen[1]}${rest[1]}` : groups && more ? `${groups[1]} ${more[1]}` : undefined;
    if (join === undefined) continue;
    joins.set(i, joins.has(i) ? `${joins.get(i)} ${join}` : join);
    joins.set(i + 1, join);
  }
  return joins;
}
/** How much of a line's end brokenValues reads: a broken word's part (120) and its hyphen, or nine groups of a number. */
const LINE_END_READ = 128;
const DIGIT_END = /\d$/;
/** A line's last run ending in a letter or digit and a hyphen, and the next line's first run: the two parts of a broken word. */
const HYPHEN_BROKEN_END = /(?:^|\s)(\S{0,120}[A-Za-z0-9]-)$/;
const BROKEN_REST = /^([A-Za-z0-9]\S{0,120})/;
/** A line's last groups of a number (a group with a digit, up to eight letters or digits each) and the groups the next line opens with. */
const GROUPS_END = /(?:^|\s)((?=[A-Za-z]{0,7}\d)[A-Za-z0-9]{1,8}(?:[ \t]+(?=[A-Za-z]{0,7}\d)[A-Za-z0-9]{1,8}){0,8})$/;
const GROUPS_START = /^((?=[A-Za-z]{0,7}\d)[A-Za-z0-9]{1,8}(?:[ \t]+(?=[A-Za-z]{0,7}\d)[A-Za-z0-9]{1,8}){0,8})(?![A-Za-z0-9])/;

/** Adds the other forms of the values in `text`: numbers in groups as one run, spelled-out addresses plain. */
function addValueForms(sets: Set<number>[], text: string): void {
  for (const compact of compactNumbers(text)) for (const h of shingles(compact, 1, { mode: 'text' })) sets[0]!.add(h);
  for (const address of spelledEmails(text)) addShingles(sets, address);
}

/** Adds a value's shingles for k = 1..MAX_K to sets kept as shingleSets keeps them. */
function addShingles(sets: Set<number>[], value: string): void {
  shinglesUpTo(value, MAX_K, { mode: 'text' }).forEach((run, i) => run.forEach((h) => sets[i]!.add(h)));
}

/**
 * Adds to a passage's sets each address spelled in the raw result whose local part
 * the passage holds: the passage that names the mailbox is where the address was
 * written, whatever the reading made of the markup around it.
 */
function addAddressesOf(sets: Set<number>[], text: string, addresses: readonly string[]): void {
  const lower = text.toLowerCase();
  for (const address of addresses) {
    if (lower.includes(address.slice(0, address.indexOf('@')).toLowerCase())) addShingles(sets, address);
  }
}

/** An "at" spelled as a tag ("<at>", "< @ >"), which the reading drops with the rest of the markup. */
const AT_TAG = /< {0,4}(?:at|@) {0,4}>/i;
const NO_ADDRESSES: readonly string[] = [];

/** The sets of a source not yet shingled (see #addSources), and the sources of a call that drops none: shared, never written. */
const NO_SETS: readonly ReadonlySet<number>[] = Object.freeze([]);
const NO_SOURCES: ReadonlySet<Source> = new Set();

/** A source's highest score: how risky a line is to be charged with, and which lines a full session drops first. */
const riskOf = (src: Source): number => Math.max(src.score, src.context, src.segment);

/** No English verbs: a passage that asks for nothing in another language. Shared. */
const NO_VERB_WORDS: readonly string[] = [];

/** No verb hashes: a call that is no write, or that no line may explain. Shared. */
const NO_VERBS: readonly number[] = [];

/** The planted calls of a result that holds none, shared. */
const NO_CALLS: readonly number[] = [];

/** Whether a passage's result holds a call, in call syntax, to the tool of these keys (toolNameHash of each toolNameKeys form). */
function namesCall(src: Source, named: readonly number[]): boolean {
  return src.everyCall || (src.calls.length > 0 && named.some((h) => src.calls.includes(h)));
}

/** A single word's hash as `shingles(…, 1)` gives it, memoised: tool names repeat call after call. */
const wordHashes = new Map<string, number>();
function wordHash(word: string): number {
  let h = wordHashes.get(word);
  if (h === undefined) {
    h = shingles(word, 1, { mode: 'text' })[0]!;
    if (wordHashes.size < 4096) wordHashes.set(word, h);
  }
  return h;
}

/** The hosts of the web addresses among `found` that carry more than their host ("evil.test" of "https://evil.test/log?d=…"), each with its addresses. */
function urlHosts(found: readonly string[]): Map<string, string[]> {
  const hosts = new Map<string, string[]>();
  for (const e of found) {
    const m = /^(?:https?:\/\/)?([^/?#:\s]+\.[^/?#:\s]+)[/?#:]./i.exec(e);
    if (m && (e.startsWith('www.') || /^https?:/i.test(e))) hosts.set(m[1]!, [...(hosts.get(m[1]!) ?? []), e]);
  }
  return hosts;
}

/** A verb and the words a request may use for it. */
const verbWords = (verb: string): string[] => [verb, ...(SAME_ACTION[verb] ?? [])];
/**
 * The same in the forms a request line may write them in ("must be forwarded"), hashed; memoised, as every call to a
 * tool reads them again (the verbs are the closed set of WRITE_VERBS and ASKING_VERBS).
 */
const verbHashesOf = new Map<string, number[]>();
function verbHashes(verb: string): number[] {
  let hashes = verbHashesOf.get(verb);
  if (hashes === undefined) verbHashesOf.set(verb, (hashes = verbWords(verb).flatMap(verbInflections).map(wordHash)));
  return hashes;
}
/** A word of NOUN_OR_VERB used as a verb in trusted text, kept apart from the word's own hash (which any use adds). */
const verbUseHash = (word: string): number => Math.imul(wordHash(word) ^ 0x76657262, 0x9e3779b1) >>> 0;

/** `requested` for a line that names only the tool's verb: weaker evidence than one naming all of it (as 1 it lowered held-out recall). */
const VERB_ONLY = 0.5;
/** `requestedAfterRead` from which a call is `medium` at least: the line named the tool's verb (VERB_ONLY) or more. */
const UNASKED_WRITE = VERB_ONLY;
const REQUESTED_AFTER_READ = TRACE_FEATURES.indexOf('requestedAfterRead');
const REASON_TEXT: Partial<Record<(typeof TRACE_FEATURES)[number], (d: ReasonDetail) => IpiReason>> = {
  content: (d) => ({ code: 'content', message: `the call's own input reads like an injection (${d.content.toFixed(2)})` }),
  provenance: (d) => ({ code: 'provenance', message: `an argument was copied from untrusted content: ${d.prov.detail ?? ''}` }),
  copiedRisk: (d) => ({ code: 'provenance', message: `an argument was copied from untrusted content: ${d.prov.detail ?? ''}` }),
  copiedContext: (d) => ({ code: 'provenance', message: `an argument was copied from next to an injection-like passage: ${d.prov.detail ?? ''}` }),
  copiedSegment: (d) => ({ code: 'provenance', message: `an argument was copied from a message or field that reads like an injection: ${d.prov.detail ?? ''}` }),
  affinity: (d) => ({ code: 'tool-affinity', message: d.affinity.detail ?? 'the tool is what an injection-like passage asks for' }),
  sessionRisk: (d) => ({ code: 'after-injection', message: `the session has read an injection-like passage (${d.sessionRisk.toFixed(2)})` }),
  recentRisk: () => ({ code: 'after-injection', message: 'the latest tool result reads like an injection' }),
  afterRisky: () => ({ code: 'after-injection', message: 'the call follows an injection-like tool result' }),
  surprise: () => ({ code: 'surprise', message: 'the call is unusual for this session' }),
  novelEntity: () => ({ code: 'novel-value', message: 'an argument holds an address or number nothing in the session contains' }),
  askedRead: () => ({ code: 'not-asked', message: 'the user only asked a question, for no change' }),
  copiedRequest: (d) => ({ code: 'provenance', message: `an argument was copied from a tool result that asks its reader for a change, or writes out a call to this tool: ${d.prov.detail ?? ''}` }),
  requested: () => ({ code: 'tool-affinity', message: 'a tool result asks its reader for what this tool does, and the user did not' }),
};
interface ReasonDetail {
  readonly prov: { readonly detail?: string };
  readonly affinity: { readonly detail?: string };
  readonly content: number;
  readonly sessionRisk: number;
}

/** The features that pushed the call's score up most, as reasons (one per code). */
function reasonsFor(contributions: Float64Array, x: Float64Array, d: ReasonDetail, unasked: boolean): IpiReason[] {
  const order = [...contributions.keys()].filter((i) => contributions[i]! > 0.25 && x[i]! > 0).sort((a, b) => contributions[b]! - contributions[a]!);
  const out: IpiReason[] = unasked ? [{ code: 'not-asked', message: 'the user only asked a question, and a tool result asks for this change' }] : [];
  for (const i of order) {
    const make = REASON_TEXT[TRACE_FEATURES[i]!];
    if (!make) continue;
    const reason = make(d);
    if (!out.some((r) => r.code === reason.code)) out.push(reason);
  }
  return out.length > 0 ? out : [{ code: 'trace', message: 'the call, in this session, reads like one an injection caused' }];
}
