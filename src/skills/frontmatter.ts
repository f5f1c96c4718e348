import { parse } from 'yaml';
import { frontmatterRange } from './bundle.js';

export interface SkillMeta {
  readonly name: string;
  readonly description: string;
  readonly version?: string;
  /** The inline signature carrier, if present. */
  readonly xSignature?: string;
  readonly fields: Readonly<Record<string, unknown>>;
}

/**
 * Parse SKILL.md's YAML frontmatter. Never throws: returns a problem for a
 * missing block, YAML that does not parse (or uses aliases, tags or merge
 * keys), or missing `name` / `description`.
 */
export function readFrontmatter(bytes: Uint8Array): SkillMeta | { problem: string } {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { problem: 'SKILL.md is not UTF-8' };
  }
  const range = frontmatterRange(text);
  if (!range) return { problem: 'SKILL.md has no --- frontmatter block' };
  let data: unknown;
  try {
    // A small, strict parse: no custom tags, a low alias budget (YAML bombs), unique keys.
    data = parse(text.slice(range.start, range.end), { customTags: [], maxAliasCount: 0, uniqueKeys: true, strict: true });
  } catch (e) {
    return { problem: `frontmatter is not valid YAML: ${(e as Error).message.split('\n')[0]}` };
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return { problem: 'frontmatter is not a mapping' };
  const fields = data as Record<string, unknown>;
  if (typeof fields.name !== 'string' || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(fields.name)) {
    return { problem: 'frontmatter needs a name: lowercase letters, digits and hyphens, at most 64' };
  }
  if (typeof fields.description !== 'string' || fields.description.length === 0) return { problem: 'frontmatter needs a description' };
  const version = fields.version === undefined ? undefined : String(fields.version);
  const xs = fields['x-signature'];
  if (xs !== undefined && typeof xs !== 'string') return { problem: 'x-signature must be a string' };
  return { name: fields.name, description: fields.description, ...(version !== undefined ? { version } : {}), ...(xs !== undefined ? { xSignature: xs } : {}), fields };
}
