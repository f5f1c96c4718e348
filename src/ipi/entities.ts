/**
 * Values inside argument strings that an attacker plants for an agent to
 * copy: emails, URLs and domains, IBANs and account numbers, phone numbers,
 * file paths. Each is checked on its own, so a long body that merely quotes
 * an attacker's address is still traced to it.
 */
const PATTERNS: RegExp[] = [
  /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, // email
  /\b(?:https?:\/\/|www\.)[^\s'"<>)]+/gi, // URL
  /\b[A-Z]{2}\d{2}[A-Z0-9]{10,30}\b/g, // IBAN
  /\b\d{8,20}\b/g, // account / card numbers
  /\+?\d[\d ()-]{7,}\d/g, // phone numbers
  /(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]+)+/g, // paths
];

export function entities(text: string): string[] {
  const found = new Set<string>();
  for (const re of PATTERNS) for (const m of text.matchAll(re)) found.add(m[0].replace(/[.,;:]+$/, ''));
  return [...found];
}

/** Every string (and number, as text) inside a JSON value, with its path. */
export function stringLeaves(value: unknown, path = '$', out: { path: string; value: string }[] = [], depth = 0): { path: string; value: string }[] {
  if (depth > 32) return out;
  if (typeof value === 'string') out.push({ path, value });
  else if (typeof value === 'number' && Number.isFinite(value)) out.push({ path, value: String(value) });
  else if (Array.isArray(value)) value.forEach((v, i) => stringLeaves(v, `${path}[${i}]`, out, depth + 1));
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) stringLeaves(v, `${path}.${k}`, out, depth + 1);
  return out;
}
