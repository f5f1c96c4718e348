import { sha256, sha256Batch, toHex } from '../bindings/index.js';
import { assertOptions, ParapetTypeError } from '../bindings/errors.js';
import type { VerifyResult } from '../bindings/result.js';
import { skillMdForDigest } from './skill-md.js';

export { frontmatterRange, skillMdForDigest } from './skill-md.js';

/** A skill bundle in memory: relative path → bytes. `SKILL.md` must be at the root. */
export interface SkillBundle {
  readonly files: ReadonlyMap<string, Uint8Array>;
}

/** Files that carry signatures: never part of what is signed. */
export const CARRIER_FILES = ['SKILL.sig', 'MANIFEST', 'MANIFEST.minisig', 'MANIFEST.sig'] as const;
const CARRIERS = new Set<string>(CARRIER_FILES);

export interface ManifestEntry {
  readonly path: string;
  readonly sha256: string;
}

/**
 * Why a path is refused, or undefined when it is fine. Paths are relative,
 * '/'-separated, NFC; absolute paths, '..' and '.' segments, empty segments,
 * backslashes and control characters are refused because they could name a
 * file outside the bundle or one that looks like another. U+FFFD and lone
 * surrogates are refused because they are what a name that was not UTF-8
 * decodes to: two different names on disk would share one manifest line.
 */
export function pathProblem(path: string): string | undefined {
  if (typeof path !== 'string' || path.length === 0) return 'empty path';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return `absolute path ${JSON.stringify(path)}`;
  if (path.includes('\\')) return `backslash in ${JSON.stringify(path)}`;
  if (/[\u0000-\u001f\u007f-\u009f]/.test(path)) return `control character in ${JSON.stringify(path)}`;
  if (/[\ufffd]|\p{Cs}/u.test(path)) return `${JSON.stringify(path)} is not a UTF-8 name (U+FFFD or a lone surrogate)`;
  for (const segment of path.split('/')) {
    if (segment === '') return `empty segment in ${JSON.stringify(path)}`;
    if (segment === '.' || segment === '..') return `'${segment}' segment in ${JSON.stringify(path)}`;
  }
  return undefined;
}

/**
 * How a case-insensitive, compatibility-normalising reader may see a name:
 * `SKILL.sig` with a Kelvin sign (U+212A), `skill.sig`, full-width letters and
 * `skıll.sig` (dotless i, upper-cased to I) all fold to one name.
 */
export const foldName = (name: string): string => name.normalize('NFKC').toUpperCase().toLowerCase().normalize('NFKC');

// Names with a meaning at the root: a look-alike there is refused, not hashed,
// because a reader that folds names would take it for the carrier or SKILL.md.
const RESERVED = new Map([...CARRIER_FILES, 'SKILL.md'].map((n) => [foldName(n), n]));

/** Compare by Unicode code point (UTF-8 byte order), which every language can reproduce. */
function compareCodePoints(a: string, b: string): number {
  const ia = a[Symbol.iterator]();
  const ib = b[Symbol.iterator]();
  for (;;) {
    const x = ia.next();
    const y = ib.next();
    if (x.done || y.done) return x.done === y.done ? 0 : x.done ? -1 : 1;
    const d = x.value.codePointAt(0)! - y.value.codePointAt(0)!;
    if (d !== 0) return d;
  }
}

/** A bundle's manifest, or `malformed-bundle` with every problem found (each path refused, a missing SKILL.md). */
export type ManifestBuild = VerifyResult<'malformed-bundle', { readonly entries: ManifestEntry[] }, { readonly problems: readonly string[] }>;

const malformedBundle = (problems: string[]): ManifestBuild => ({ ok: false, code: 'malformed-bundle', message: problems.join('; '), problems });

/**
 * Check every path and build the manifest: NFC paths sorted by code point with
 * the SHA-256 of each file, carriers excluded. With `inline`, SKILL.md is
 * hashed without its `x-signature` line (see `skillMdForDigest`) — only when
 * that line is the carrier being verified: otherwise an `x-signature` line is
 * content like any other, so text slipped into one after signing is a change.
 * Returns the problems instead when there are any (never throws on bundle content).
 */
export function buildManifest(bundle: SkillBundle, options: { inline?: boolean } = {}): ManifestBuild {
  assertOptions(options);
  const problems: string[] = [];
  if (!(bundle?.files instanceof Map)) return malformedBundle(['bundle.files must be a Map of path to bytes']);
  const seen = new Map<string, string>();
  const folded = new Map<string, string>();
  const items: [string, Uint8Array][] = [];
  let skillMd: Uint8Array | undefined;
  for (const [raw, bytes] of bundle.files) {
    const problem = pathProblem(raw);
    if (problem) {
      problems.push(problem);
      continue;
    }
    if (!(bytes instanceof Uint8Array)) {
      problems.push(`${JSON.stringify(raw)} is not bytes`);
      continue;
    }
    const path = raw.normalize('NFC');
    const fold = foldName(path);
    const reserved = RESERVED.get(fold);
    if (reserved !== undefined && raw !== reserved) {
      problems.push(`${JSON.stringify(raw)} looks like ${reserved} to a reader that folds case or Unicode forms`);
      continue;
    }
    if (seen.has(path)) problems.push(`duplicate path ${JSON.stringify(path)} (also ${JSON.stringify(seen.get(path))})`);
    if (folded.has(fold) && folded.get(fold) !== path) problems.push(`paths differ only in case or Unicode form: ${JSON.stringify(folded.get(fold))} and ${JSON.stringify(path)}`);
    seen.set(path, raw);
    folded.set(fold, path);
    if (path === 'SKILL.md') skillMd = bytes;
    if (!CARRIERS.has(path)) items.push([path, bytes]);
  }
  if (!seen.has('SKILL.md')) problems.push('no SKILL.md at the root of the bundle');
  if (problems.length) return malformedBundle(problems);
  items.sort((a, b) => compareCodePoints(a[0], b[0]));
  // One batch: small files share wasm crossings.
  const digests = sha256Batch(items.map(([, bytes]) => bytes));
  const entries = items.map(([path], i) => ({ path, sha256: toHex(digests[i]!) }));
  return { ok: true, entries: options.inline ? inlineManifest(entries, skillMd!) : entries };
}

/**
 * A manifest as an inline signature covers it: the same entries with SKILL.md
 * hashed by `skillMdForDigest`. Verifiers derive it from the plain manifest
 * they already built instead of hashing the whole bundle again.
 */
export function inlineManifest(entries: readonly ManifestEntry[], skillMd: Uint8Array): ManifestEntry[] {
  const digest = toHex(sha256(skillMdForDigest(skillMd)));
  return entries.map((e) => (e.path === 'SKILL.md' ? { path: e.path, sha256: digest } : e));
}

/** The canonical manifest file: one `<sha256 hex>  <path>\n` line per file (sha256sum's format). */
export function manifestText(entries: readonly ManifestEntry[]): string {
  if (!Array.isArray(entries) || !entries.every((e) => typeof e?.sha256 === 'string' && typeof e?.path === 'string')) {
    throw new ParapetTypeError('"entries" must be an array of { path, sha256 }');
  }
  return entries.map((e) => `${e.sha256}  ${e.path}\n`).join('');
}

/**
 * Why a manifest file was refused: `missing-newline` (text after the last
 * line), `malformed-line` (not `<sha256 hex>  <path>`), `bad-path` (a path
 * `pathProblem` refuses), `duplicate-path` (a path listed twice: which of its
 * digests was signed would depend on the reader).
 */
export type ManifestFailure = 'missing-newline' | 'malformed-line' | 'bad-path' | 'duplicate-path';

/** A manifest file's entries, or why it is not one (with the 1-based line). */
export type ParsedManifest = VerifyResult<ManifestFailure, { readonly entries: ManifestEntry[] }, { readonly line?: number }>;

/** Parse a manifest file. Never throws. */
export function parseManifest(text: string): ParsedManifest {
  if (typeof text !== 'string') return { ok: false, code: 'malformed-line', message: 'a manifest is text' };
  if (text === '') return { ok: true, entries: [] };
  if (!text.endsWith('\n')) return { ok: false, code: 'missing-newline', message: 'a manifest ends with a newline' };
  const entries: ManifestEntry[] = [];
  const seen = new Set<string>();
  const lines = text.slice(0, -1).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(lines[i]!);
    if (!m) return { ok: false, code: 'malformed-line', message: `line ${i + 1} is not "<sha256 hex>  <path>"`, line: i + 1 };
    const path = m[2]!;
    const problem = pathProblem(path);
    if (problem) return { ok: false, code: 'bad-path', message: `line ${i + 1}: ${problem}`, line: i + 1 };
    if (seen.has(path)) return { ok: false, code: 'duplicate-path', message: `line ${i + 1} lists ${JSON.stringify(path)} again`, line: i + 1 };
    seen.add(path);
    entries.push({ sha256: m[1]!, path });
  }
  return { ok: true, entries };
}

/** Which files a manifest names that the bundle lacks, has extra, or has with other bytes. */
export function diffManifests(signed: readonly ManifestEntry[], actual: readonly ManifestEntry[]) {
  const a = new Map(signed.map((e) => [e.path, e.sha256]));
  const b = new Map(actual.map((e) => [e.path, e.sha256]));
  return {
    added: [...b.keys()].filter((p) => !a.has(p)),
    removed: [...a.keys()].filter((p) => !b.has(p)),
    changed: [...b.keys()].filter((p) => a.has(p) && a.get(p) !== b.get(p)),
  };
}
