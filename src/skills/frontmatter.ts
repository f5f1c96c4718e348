import { CST, isMap, isScalar, Lexer, parseDocument } from 'yaml';
import type { VerifyResult } from '../bindings/result.js';
import { frontmatterRange } from './skill-md.js';

export interface SkillMeta {
  readonly name: string;
  readonly description: string;
  /** The version as written in the source (`1.10` stays "1.10", not the YAML number 1.1). */
  readonly version?: string;
  /** The inline signature carrier, if present. */
  readonly xSignature?: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * Limits checked before the YAML is parsed. Skill frontmatter is a name, a
 * description and a few settings; the YAML parser's duplicate-key check is
 * quadratic in a mapping's keys (40,000 keys took 11.7 s) and it runs before
 * any signature is checked, so anyone who can drop a folder could stall a loader.
 */
export const MAX_FRONTMATTER_BYTES = 64 * 1024;
export const MAX_FRONTMATTER_KEYS = 256;

// Characters on which YAML readers disagree: C0 controls but tab and LF (and
// the CR of a CRLF), DEL, C1 controls (NEL is a line break in YAML 1.1), the
// Unicode line and paragraph separators (line breaks to YAML 1.1 readers such
// as PyYAML), and a byte-order mark. Each could make another reader see keys
// (`allowed-tools:`) that this one does not, or the reverse.
const DISPUTED = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u2028\u2029\ufeff]|\r(?!\n)/;
// Document markers and directives: readers split frontmatter on `---` lines
// differently (gray-matter closes at any line starting with ---), and a
// %YAML or %TAG directive changes how the rest is read.
const MARKER = /^(?:---|\.\.\.|%)/m;
// Every mapping key needs one of these tokens: ':' after it, '?' before it,
// ',' between flow entries, or '{' opening a flow mapping.
const KEY_TOKENS = new Set(['map-value-ind', 'explicit-key-ind', 'comma', 'flow-map-start']);

/**
 * Why a frontmatter was refused:
 * - `not-bytes`, `not-utf8`: SKILL.md is not UTF-8 bytes;
 * - `byte-order-mark`: a BOM before the opening line (some readers then see no frontmatter);
 * - `no-frontmatter`: no `---` block at the start;
 * - `too-large`, `too-many-keys`: over MAX_FRONTMATTER_BYTES or MAX_FRONTMATTER_KEYS;
 * - `ambiguous`: characters or markers that YAML readers read differently;
 * - `invalid-yaml`: YAML that does not parse strictly (aliases, unknown tags, duplicate keys);
 * - `invalid-field`: not a mapping, or a missing or wrongly typed name, description, version or x-signature.
 */
export type FrontmatterFailure =
  | 'not-bytes' | 'not-utf8' | 'byte-order-mark' | 'no-frontmatter' | 'too-large' | 'too-many-keys' | 'ambiguous'
  | 'invalid-yaml' | 'invalid-field';

/** SKILL.md's metadata, or why its frontmatter was refused. */
export type FrontmatterResult = VerifyResult<FrontmatterFailure, { readonly meta: SkillMeta }, {}>;

const refuse = (code: FrontmatterFailure, message: string): FrontmatterResult => ({ ok: false, code, message });

/**
 * Parse SKILL.md's YAML frontmatter. Never throws: a missing block, a
 * byte-order mark, a frontmatter over the limits, characters or markers that
 * readers disagree on, YAML that does not parse (or uses aliases or unknown
 * tags), or a missing `name` / `description` is a failure with its code.
 */
export function readFrontmatter(bytes: Uint8Array): FrontmatterResult {
  if (!(bytes instanceof Uint8Array)) return refuse('not-bytes', 'SKILL.md is not bytes');
  let text: string;
  try {
    // ignoreBOM keeps a BOM in the text so that it is refused below, not silently dropped.
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return refuse('not-utf8', 'SKILL.md is not UTF-8');
  }
  if (text.startsWith('\ufeff')) return refuse('byte-order-mark', 'SKILL.md starts with a byte-order mark: some readers then see no frontmatter');
  const range = frontmatterRange(bytes);
  if (!range) return refuse('no-frontmatter', 'SKILL.md has no --- frontmatter block');
  if (range.end - range.start > MAX_FRONTMATTER_BYTES) return refuse('too-large', `frontmatter is larger than ${MAX_FRONTMATTER_BYTES} bytes`);
  const source = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes.subarray(range.start, range.end));
  const disputed = DISPUTED.exec(source);
  if (disputed) return refuse('ambiguous', `frontmatter contains U+${disputed[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}, which YAML readers read differently`);
  if (MARKER.test(source)) return refuse('ambiguous', 'frontmatter contains a line starting with ---, ... or %, which readers split or read differently');
  let keys = 0;
  // The lexer is linear; only the parser's composition is quadratic.
  for (const token of new Lexer().lex(source)) {
    if (KEY_TOKENS.has(CST.tokenType(token) ?? '') && ++keys > MAX_FRONTMATTER_KEYS) return refuse('too-many-keys', `frontmatter has more than ${MAX_FRONTMATTER_KEYS} keys`);
  }
  let data: unknown;
  let version: string | undefined;
  try {
    // A small, strict parse: no custom tags, no aliases (YAML bombs), unique keys.
    const doc = parseDocument(source, { customTags: [], uniqueKeys: true, strict: true, prettyErrors: false });
    const issue = doc.errors[0] ?? doc.warnings[0];
    if (issue) return refuse('invalid-yaml', `frontmatter is not valid YAML: ${issue.message.split('\n')[0]}`);
    data = doc.toJS({ maxAliasCount: 0 });
    const node = isMap(doc.contents) ? doc.contents.get('version', true) : undefined;
    if (node !== undefined) {
      // The source text, not the YAML value: `version: 1.10` is the number 1.1 to YAML.
      const value: unknown = isScalar(node) ? node.value : undefined;
      if (isScalar(node) && node.type === 'PLAIN' && value !== null) version = String(node.source);
      else if (isScalar(node) && node.type !== 'PLAIN' && typeof value === 'string') version = value;
      else return refuse('invalid-field', 'version must be a string');
    }
  } catch (e) {
    return refuse('invalid-yaml', `frontmatter is not valid YAML: ${(e as Error).message.split('\n')[0]}`);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return refuse('invalid-field', 'frontmatter is not a mapping');
  const fields = data as Record<string, unknown>;
  if (typeof fields.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(fields.name)) {
    return refuse('invalid-field', 'frontmatter needs a name: lowercase letters, digits and hyphens, at most 64');
  }
  if (typeof fields.description !== 'string' || fields.description.length === 0) return refuse('invalid-field', 'frontmatter needs a description');
  const xs = fields['x-signature'];
  if (xs !== undefined && typeof xs !== 'string') return refuse('invalid-field', 'x-signature must be a string');
  const meta: SkillMeta = { name: fields.name, description: fields.description, ...(version !== undefined ? { version } : {}), ...(xs !== undefined ? { xSignature: xs } : {}), fields };
  return { ok: true, meta };
}
