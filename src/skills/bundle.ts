import { sha256, sha256Batch, toHex } from '../bindings/index.js';

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
 * file outside the bundle or one that looks like another.
 */
export function pathProblem(path: string): string | undefined {
  if (typeof path !== 'string' || path.length === 0) return 'empty path';
  if (path.startsWith('/') || /^[A-Za-z]:/.test(path)) return `absolute path ${JSON.stringify(path)}`;
  if (path.includes('\\')) return `backslash in ${JSON.stringify(path)}`;
  if (/[\u0000-\u001f\u007f]/.test(path)) return `control character in ${JSON.stringify(path)}`;
  for (const segment of path.split('/')) {
    if (segment === '') return `empty segment in ${JSON.stringify(path)}`;
    if (segment === '.' || segment === '..') return `'${segment}' segment in ${JSON.stringify(path)}`;
  }
  return undefined;
}

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

/**
 * Check every path and build the manifest: NFC paths sorted by code point with
 * the SHA-256 of each file, carriers excluded. With `inline`, SKILL.md is
 * hashed without its `x-signature` line (see `skillMdForDigest`) — only when
 * that line is the carrier being verified: otherwise an `x-signature` line is
 * content like any other, so text slipped into one after signing is a change.
 * Returns the problems instead when there are any (never throws on bundle content).
 */
export function buildManifest(bundle: SkillBundle, options: { inline?: boolean } = {}): { entries: ManifestEntry[] } | { problems: string[] } {
  const problems: string[] = [];
  if (!(bundle?.files instanceof Map)) return { problems: ['bundle.files must be a Map of path to bytes'] };
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
    if (seen.has(path)) problems.push(`duplicate path ${JSON.stringify(path)} (also ${JSON.stringify(seen.get(path))})`);
    const fold = path.toLowerCase();
    if (folded.has(fold) && folded.get(fold) !== path) problems.push(`paths differ only in case: ${JSON.stringify(folded.get(fold))} and ${JSON.stringify(path)}`);
    seen.set(path, raw);
    folded.set(fold, path);
    if (path === 'SKILL.md') skillMd = bytes;
    if (!CARRIERS.has(path)) items.push([path, bytes]);
  }
  if (!seen.has('SKILL.md')) problems.push('no SKILL.md at the root of the bundle');
  if (problems.length) return { problems };
  items.sort((a, b) => compareCodePoints(a[0], b[0]));
  // One batch: small files share wasm crossings.
  const digests = sha256Batch(items.map(([, bytes]) => bytes));
  const entries = items.map(([path], i) => ({ path, sha256: toHex(digests[i]!) }));
  return { entries: options.inline ? inlineManifest(entries, skillMd!) : entries };
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
  return entries.map((e) => `${e.sha256}  ${e.path}\n`).join('');
}

/** Parse a manifest file; undefined when it is not one. */
export function parseManifest(text: string): ManifestEntry[] | undefined {
  if (text === '') return [];
  if (!text.endsWith('\n')) return undefined;
  const out: ManifestEntry[] = [];
  for (const line of text.slice(0, -1).split('\n')) {
    const m = /^([0-9a-f]{64}) {2}(.+)$/.exec(line);
    if (!m || pathProblem(m[2]!)) return undefined;
    out.push({ sha256: m[1]!, path: m[2]! });
  }
  return out;
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

const X_SIGNATURE_LINE = /^x-signature:[^\n]*\n/m;

/**
 * The digest rule for an inline signature: SKILL.md is hashed with the
 * frontmatter's `x-signature:` line removed (the whole line, one line, inside
 * the leading `---` block). Everything else, whitespace included, is hashed as is.
 */
export function skillMdForDigest(bytes: Uint8Array): Uint8Array {
  const text = new TextDecoder().decode(bytes);
  const fm = frontmatterRange(text);
  if (!fm) return bytes;
  const block = text.slice(fm.start, fm.end);
  const stripped = block.replace(X_SIGNATURE_LINE, '');
  if (stripped === block) return bytes;
  return new TextEncoder().encode(text.slice(0, fm.start) + stripped + text.slice(fm.end));
}

/** Offsets of the frontmatter body (between the opening `---\n` and the closing `---` line). */
export function frontmatterRange(text: string): { start: number; end: number } | undefined {
  const open = text.startsWith('---\n') ? 4 : text.startsWith('---\r\n') ? 5 : -1;
  if (open < 0) return undefined;
  const close = /^---\r?$/m.exec(text.slice(open));
  if (!close) return undefined;
  return { start: open, end: open + close.index };
}
