import { fromBase64 } from '../bindings/encoding.js';
import { describe, ParapetRangeError, ParapetTypeError } from '../bindings/errors.js';
import { canonicalJsonBytes } from '../canonical/jcs.js';
import { ed25519Verify } from '../crypto/ed25519.js';
import { parseMinisignPublicKey, type MinisignKey } from './formats/minisign.js';
import { parseSshPublicKey } from './formats/sshsig.js';
import { isSemVer } from './semver.js';
import { fingerprint } from './statement.js';

/** A key the operator trusts, pinned by fingerprint. */
export interface TrustedKeyConfig {
  /** `sha256:<hex>` of the raw 32-byte Ed25519 public key. */
  readonly fingerprint: string;
  /** The key itself, needed for minisign (whose signatures name only a key id): raw base64, a minisign key or an ssh-ed25519 line. */
  readonly publicKey?: string;
  /** Who this key is, for reports. */
  readonly signer?: string;
  /** If set, the key may sign only these skill names. */
  readonly names?: readonly string[];
}

export interface PublisherConfig {
  /** The publisher's domain; its key URL must be on it or a subdomain. */
  readonly domain: string;
  /** Where its keys are published, e.g. https://example.com/.well-known/parapet-skill-keys.json */
  readonly url: string;
}

export interface TrustRootConfig {
  readonly keys?: readonly TrustedKeyConfig[];
  readonly publishers?: readonly PublisherConfig[];
  /** Skill names always refused / the only names accepted. */
  readonly deny?: readonly string[];
  readonly allow?: readonly string[];
  /** When a name is on both lists: 'deny' (default) wins, or 'allow' wins. */
  readonly precedence?: 'deny' | 'allow';
  /** A signed revocation list (JSON text, see `RevocationList`) and the fingerprints allowed to sign it. */
  readonly revocations?: string;
  readonly revocationSigners?: readonly string[];
}

export interface TrustedKey {
  readonly fingerprint: string;
  readonly publicKey?: Uint8Array;
  readonly minisign?: MinisignKey;
  readonly signer: string;
  readonly names?: readonly string[];
}

/** The signed body of a revocation list. */
export interface RevocationList {
  readonly type: 'parapet-skill-revocations/v1';
  readonly issued_at: number;
  readonly expires_at: number;
  readonly keys: readonly string[];
  readonly skills: readonly { readonly name: string; readonly version?: string }[];
}

const FP = /^sha256:[0-9a-f]{64}$/;

const MAX_KEY_DOCUMENT = 64 * 1024;

function keyBytes(text: string): { raw: Uint8Array; minisign?: MinisignKey } {
  const minisign = parseMinisignPublicKey(text);
  if (minisign) return { raw: minisign.publicKey, minisign };
  const ssh = parseSshPublicKey(text);
  if (ssh) return { raw: ssh };
  const raw = fromBase64(text.trim());
  if (raw.length !== 32) throw new ParapetRangeError('a public key must be 32 bytes', 'invalid-value');
  return { raw };
}

/**
 * A list in the configuration. A string where a list belongs (`keys: "oops"`)
 * would otherwise fail deep inside as an untyped TypeError, or be read one
 * character at a time: `deny: "evil-skill"` would deny the names "e", "v", …
 * and let evil-skill through, and a key's `names: "weather-pro"` would let it
 * sign "weather" by substring.
 */
function checkList(value: unknown, name: string): asserts value is readonly unknown[] | undefined {
  if (value !== undefined && !Array.isArray(value)) throw new ParapetTypeError(`"${name}" must be an array, got ${describe(value)}`);
}

function checkNames(value: unknown, name: string): void {
  checkList(value, name);
  for (const [i, item] of (value ?? []).entries()) if (typeof item !== 'string') throw new ParapetTypeError(`"${name}[${i}]" must be a string, got ${describe(item)}`);
}

function checkString(value: unknown, name: string, what = 'a string'): void {
  if (value !== undefined && typeof value !== 'string') throw new ParapetTypeError(`"${name}" must be ${what}, got ${describe(value)}`);
}

/**
 * The shape of a trust root configuration, checked before any of it is used:
 * it is often parsed from the operator's JSON, and every field is named as
 * the configuration spells it.
 */
function checkConfig(config: unknown): asserts config is TrustRootConfig {
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new ParapetTypeError(`"trustRoot" must be an object, got ${describe(config)}`);
  const c = config as Record<string, unknown>;
  for (const list of ['deny', 'allow', 'revocationSigners'] as const) checkNames(c[list], list);
  checkList(c.keys, 'keys');
  for (const [i, k] of (c.keys ?? []).entries()) {
    if (typeof k !== 'object' || k === null || Array.isArray(k)) throw new ParapetTypeError(`"keys[${i}]" must be an object, got ${describe(k)}`);
    const key = k as Record<string, unknown>;
    checkString(key.publicKey, `keys[${i}].publicKey`);
    checkString(key.signer, `keys[${i}].signer`);
    checkNames(key.names, `keys[${i}].names`);
  }
  checkList(c.publishers, 'publishers');
  for (const [i, p] of (c.publishers ?? []).entries()) {
    const publisher = p as { domain?: unknown; url?: unknown } | null;
    if (typeof publisher?.domain !== 'string' || typeof publisher.url !== 'string') throw new ParapetTypeError(`"publishers[${i}]" must be { domain, url } strings, got ${describe(p)}`);
  }
  checkString(c.revocations, 'revocations', "a string (the signed list's JSON text)");
}

/**
 * The operator's trust root, validated once. Configuration errors (a bad
 * fingerprint, a key that does not match its pin, a revocation list that does
 * not verify) throw typed errors: they are the operator's, not an attacker's.
 */
export class TrustRoot {
  readonly keys: readonly TrustedKey[];
  readonly deny: ReadonlySet<string>;
  readonly allow: ReadonlySet<string> | undefined;
  readonly precedence: 'deny' | 'allow';
  readonly revocations: RevocationList | undefined;
  readonly publishers: readonly PublisherConfig[];

  /** `extraKeys` are keys already resolved elsewhere (`resolvePublishers` passes the publishers' keys). */
  constructor(config: TrustRootConfig, extraKeys: readonly TrustedKey[] = []) {
    checkConfig(config);
    if (!Array.isArray(extraKeys)) throw new ParapetTypeError('"extraKeys" must be an array');
    this.keys = [...(config.keys ?? []).map((k, i) => TrustRoot.#key(k, i)), ...extraKeys];
    this.deny = new Set(config.deny ?? []);
    this.allow = config.allow ? new Set(config.allow) : undefined;
    this.precedence = config.precedence ?? 'deny';
    if (this.precedence !== 'deny' && this.precedence !== 'allow') throw new ParapetRangeError('"precedence" must be deny or allow', 'invalid-value');
    this.publishers = config.publishers ?? [];
    this.revocations = config.revocations === undefined ? undefined : TrustRoot.#revocations(config.revocations, config.revocationSigners ?? []);
  }

  static #key(k: TrustedKeyConfig, i: number): TrustedKey {
    if (typeof k.fingerprint !== 'string' || !FP.test(k.fingerprint)) throw new ParapetRangeError(`"keys[${i}].fingerprint" must be sha256:<64 hex>`, 'invalid-value');
    if (k.publicKey === undefined) return { fingerprint: k.fingerprint, signer: k.signer ?? k.fingerprint, ...(k.names ? { names: k.names } : {}) };
    const { raw, minisign } = keyBytes(k.publicKey);
    if (fingerprint(raw) !== k.fingerprint) throw new ParapetRangeError(`"keys[${i}].publicKey" does not match its fingerprint`, 'invalid-value');
    return { fingerprint: k.fingerprint, publicKey: raw, ...(minisign ? { minisign } : {}), signer: k.signer ?? k.fingerprint, ...(k.names ? { names: k.names } : {}) };
  }

  static #revocations(text: string, signers: readonly string[]): RevocationList {
    let doc: { revocations: RevocationList; public_key: string; signature: string };
    try {
      doc = JSON.parse(text);
    } catch {
      throw new ParapetRangeError('"revocations" is not JSON', 'invalid-value');
    }
    const list = doc?.revocations;
    if (list?.type !== 'parapet-skill-revocations/v1' || !Number.isSafeInteger(list.expires_at) || !Array.isArray(list.keys) || !Array.isArray(list.skills)) {
      throw new ParapetRangeError('"revocations" is not a parapet revocation list', 'invalid-value');
    }
    // Versions are matched by SemVer precedence; one that cannot be ordered could never match, so the list is refused.
    for (const [i, s] of list.skills.entries()) {
      if (typeof s?.name !== 'string') throw new ParapetRangeError(`"revocations" skills[${i}].name must be a string`, 'invalid-value');
      if (s.version !== undefined && !isSemVer(s.version)) {
        throw new ParapetRangeError(`"revocations" skills[${i}].version is not a SemVer 2.0.0 version: ${JSON.stringify(s.version)}`, 'invalid-value');
      }
    }
    const pk = fromBase64(String(doc.public_key));
    if (!signers.includes(fingerprint(pk))) throw new ParapetRangeError('"revocations" is signed by a key not in "revocationSigners"', 'invalid-value');
    if (!ed25519Verify(fromBase64(String(doc.signature)), canonicalJsonBytes(list), pk)) {
      throw new ParapetRangeError('"revocations" signature does not verify', 'invalid-value');
    }
    return list;
  }

  byFingerprint(fp: string): TrustedKey | undefined {
    return this.keys.find((k) => k.fingerprint === fp);
  }

  /** Is this skill name refused by the allow/deny lists? */
  nameRefused(name: string): string | undefined {
    const denied = this.deny.has(name);
    const allowed = this.allow === undefined || this.allow.has(name);
    if (denied && this.allow?.has(name)) return this.precedence === 'deny' ? `"${name}" is on both lists and deny wins` : undefined;
    if (denied) return `"${name}" is on the deny list`;
    if (!allowed) return `"${name}" is not on the allow list`;
    return undefined;
  }
}

/**
 * Fetch each publisher's keys from its well-known URL and return a trust
 * root that includes them. `fetch` is the caller's; redirects are refused
 * (a redirect could lead off the publisher's domain), the URL must be https
 * on the publisher's domain or a subdomain, and a failed publisher throws.
 */
export async function resolvePublishers(config: TrustRootConfig, fetchFn: typeof fetch): Promise<TrustRoot> {
  checkConfig(config);
  if (typeof fetchFn !== 'function') throw new ParapetTypeError('"fetch" must be a function');
  const extra: TrustedKey[] = [];
  for (const [i, p] of (config.publishers ?? []).entries()) {
    let url: URL;
    try {
      url = new URL(p.url);
    } catch {
      throw new ParapetRangeError(`"publishers[${i}].url" is not a URL`, 'invalid-value');
    }
    const domain = p.domain.toLowerCase().replace(/\.$/, '');
    const host = url.hostname.toLowerCase();
    if (url.protocol !== 'https:') throw new ParapetRangeError(`"publishers[${i}].url" must be https`, 'invalid-value');
    if (host !== domain && !host.endsWith(`.${domain}`)) throw new ParapetRangeError(`"publishers[${i}].url" is not on ${domain}`, 'invalid-value');
    let text: string;
    try {
      const response = await fetchFn(url.href, { redirect: 'error' });
      if (!response.ok) throw new ParapetRangeError(`publisher ${domain}: ${url.href} answered ${response.status}`, 'invalid-value');
      if (response.redirected) throw new ParapetRangeError(`publisher ${domain}: redirected`, 'invalid-value');
      // A key document is a few hundred bytes; refuse anything large before parsing it.
      text = await response.text();
    } catch (cause) {
      if (cause instanceof ParapetRangeError) throw cause;
      throw new ParapetRangeError(`publisher ${domain}: fetching ${url.href} failed (${String(cause)})`, 'invalid-value', { cause });
    }
    if (text.length > MAX_KEY_DOCUMENT) throw new ParapetRangeError(`publisher ${domain}: key document larger than ${MAX_KEY_DOCUMENT} bytes`, 'invalid-value');
    let body: { keys?: { public_key?: string }[] };
    try {
      body = JSON.parse(text);
    } catch {
      throw new ParapetRangeError(`publisher ${domain}: key document is not JSON`, 'invalid-value');
    }
    const keys: unknown = body?.keys ?? [];
    if (!Array.isArray(keys)) throw new ParapetRangeError(`publisher ${domain}: "keys" is not a list`, 'invalid-value');
    for (const k of keys as { public_key?: unknown }[]) {
      const raw = fromBase64(String(k?.public_key));
      if (raw.length !== 32) throw new ParapetRangeError(`publisher ${domain}: a key is not 32 bytes`, 'invalid-value');
      extra.push({ fingerprint: fingerprint(raw), publicKey: raw, signer: domain });
    }
  }
  return new TrustRoot(config, extra);
}
