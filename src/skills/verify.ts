import { bytesEqual, toHex, utf8 } from '../bindings/encoding.js';
import { sha256 } from '../bindings/index.js';
import { ParapetRangeError, ParapetStateError, ParapetTypeError } from '../bindings/errors.js';
import { buildManifest, diffManifests, inlineManifest, manifestText, parseManifest, type ManifestEntry, type SkillBundle } from './bundle.js';
import { readFrontmatter, type SkillMeta } from './frontmatter.js';
import { parseMinisignSignature, verifyMinisign } from './formats/minisign.js';
import { parseSshSignature, verifySshSignature } from './formats/sshsig.js';
import { envelopeSignatureValid, fingerprint, parseEnvelope, parseInlineEnvelope, type SkillEnvelope } from './statement.js';
import { TrustRoot, type TrustRootConfig, type TrustedKey } from './trust.js';

export type SkillStatus =
  | 'verified' | 'unsigned' | 'bad-signature' | 'untrusted-key' | 'digest-mismatch' | 'expired' | 'revoked'
  | 'rollback' | 'policy-denied' | 'malformed';

export type SkillMode = 'enforce' | 'warn' | 'off';
export type SkillFormat = 'sidecar' | 'inline' | 'minisign' | 'sshsig' | 'none';

export interface SkillVerification {
  readonly status: SkillStatus;
  /** Whether the caller may load the skill: enforce → only when verified; warn and off → always. */
  readonly valid: boolean;
  readonly mode: SkillMode;
  readonly format: SkillFormat;
  readonly name?: string;
  readonly version?: string;
  readonly keyId?: string;
  readonly fingerprint?: string;
  readonly signer?: string;
  readonly files: { readonly added: readonly string[]; readonly removed: readonly string[]; readonly changed: readonly string[] };
  readonly reasons: readonly string[];
}

/** The namespace for `ssh-keygen -Y sign -n parapet-skill`. */
export const SSH_NAMESPACE = 'parapet-skill';

/** Persistable version ratchet: the highest version accepted per skill name. */
export class SkillRatchet {
  readonly #latest = new Map<string, string>();

  get(name: string): string | undefined {
    return this.#latest.get(name);
  }

  accept(name: string, version: string | undefined): void {
    if (version === undefined) return;
    const held = this.#latest.get(name);
    if (held === undefined || compareVersions(version, held) > 0) this.#latest.set(name, version);
  }

  toJSON(): { version: 1; skills: Record<string, string> } {
    return { version: 1, skills: Object.fromEntries(this.#latest) };
  }

  static fromJSON(state: unknown): SkillRatchet {
    const s = state as { version?: number; skills?: Record<string, unknown> };
    if (typeof state !== 'object' || state === null || s.version !== 1) throw new ParapetStateError('skill ratchet state must have version 1', 'state-version');
    if (typeof s.skills !== 'object' || s.skills === null) throw new ParapetTypeError('"state.skills" must be an object');
    const r = new SkillRatchet();
    for (const [name, v] of Object.entries(s.skills)) {
      if (typeof v !== 'string') throw new ParapetTypeError(`"state.skills.${name}" must be a string`);
      r.#latest.set(name, v);
    }
    return r;
  }
}

/**
 * Compare versions numerically part by part ("1.10.0" > "1.9.2"); a
 * pre-release ("1.0.0-rc1") sorts before its release. Non-numeric parts
 * compare as text.
 */
export function compareVersions(a: string, b: string): number {
  const split = (v: string) => {
    const [core, pre] = v.split('-', 2) as [string, string | undefined];
    return { parts: core.split('.'), pre };
  };
  const x = split(a);
  const y = split(b);
  for (let i = 0; i < Math.max(x.parts.length, y.parts.length); i++) {
    const p = x.parts[i] ?? '0';
    const q = y.parts[i] ?? '0';
    const d = /^\d+$/.test(p) && /^\d+$/.test(q) ? Number(p) - Number(q) : p.localeCompare(q);
    if (d !== 0) return Math.sign(d);
  }
  if (x.pre === y.pre) return 0;
  if (x.pre === undefined) return 1;
  if (y.pre === undefined) return -1;
  return x.pre.localeCompare(y.pre);
}

export interface VerifyOptions {
  readonly trustRoot: TrustRoot | TrustRootConfig;
  readonly mode?: SkillMode;
  /** Seconds since the epoch; default now. */
  readonly now?: number;
  /** The version ratchet; updated when a skill verifies. */
  readonly state?: SkillRatchet;
  /** Where every result is recorded (e.g. an AuditLog from parapet/tlog). */
  readonly audit?: { append(event: Record<string, unknown>): unknown };
}

const NO_FILES = { added: [], removed: [], changed: [] } as const;

/**
 * Verify a whole skill bundle against the operator's trust root. Never throws
 * on bundle content: every outcome is a status with reasons. A forged
 * signature (`bad-signature`) is told from a good signature by a key the
 * operator does not trust (`untrusted-key`).
 */
export function verifySkillSignature(bundle: SkillBundle, options: VerifyOptions): SkillVerification {
  const mode = options?.mode ?? 'enforce';
  if (mode !== 'enforce' && mode !== 'warn' && mode !== 'off') throw new ParapetRangeError(`"mode" must be enforce, warn or off`, 'invalid-value');
  const trust = options.trustRoot instanceof TrustRoot ? options.trustRoot : new TrustRoot(options.trustRoot);
  const now = options.now ?? Math.floor(Date.now() / 1000);
  const base = { mode, format: 'none' as SkillFormat, files: NO_FILES };
  const done = (status: SkillStatus, extra: Partial<SkillVerification> = {}): SkillVerification => {
    const result: SkillVerification = { ...base, ...extra, status, valid: mode !== 'enforce' || status === 'verified', reasons: extra.reasons ?? [] };
    options.audit?.append({
      type: 'skill-verification', at: now, status, valid: result.valid, mode, format: result.format,
      ...(result.name ? { name: result.name } : {}), ...(result.version ? { version: result.version } : {}),
      ...(result.fingerprint ? { fingerprint: result.fingerprint } : {}), reasons: [...result.reasons], files: result.files,
    });
    return result;
  };
  if (mode === 'off') return done('unsigned', { reasons: ['verification is off'] });

  const paths = buildManifest(bundle);
  if ('problems' in paths) return done('malformed', { reasons: paths.problems });
  const meta = readFrontmatter(bundle.files.get('SKILL.md')!);
  if ('problem' in meta) return done('malformed', { reasons: [meta.problem] });
  const who = { name: meta.name, ...(meta.version !== undefined ? { version: meta.version } : {}) };
  const refused = trust.nameRefused(meta.name);
  if (refused) return done('policy-denied', { ...who, reasons: [refused] });

  const carrier = findCarrier(bundle, meta);
  if (!carrier) return done('unsigned', { ...who, reasons: ['no signature: no SKILL.sig, x-signature, MANIFEST.minisig or MANIFEST.sig'] });
  if ('malformed' in carrier) return done('malformed', { ...who, format: carrier.format, reasons: [carrier.malformed] });
  // Only the inline carrier's own line is left out of SKILL.md's digest.
  const entries = carrier.format === 'inline' ? inlineManifest(paths.entries, bundle.files.get('SKILL.md')!) : paths.entries;

  const checked = 'envelope' in carrier ? checkEnvelope(carrier.envelope, trust) : checkDetached(carrier, trust);
  const ids = { format: carrier.format, ...who, ...(checked.fingerprint ? { fingerprint: checked.fingerprint, keyId: checked.fingerprint } : {}), ...(checked.signer ? { signer: checked.signer } : {}) };
  if (checked.status) return done(checked.status, { ...ids, reasons: [checked.reason!] });

  // The signature is good and the key trusted: now what it covers.
  const files = diffManifests(checked.signedManifest!, entries);
  if (files.added.length || files.removed.length || files.changed.length) {
    return done('digest-mismatch', { ...ids, files, reasons: describeDiff(files) });
  }
  if (checked.statement && checked.statement.name !== meta.name) return done('digest-mismatch', { ...ids, reasons: ['the signed name differs from SKILL.md'] });
  if (checked.statement && (checked.statement.version ?? undefined) !== meta.version) return done('digest-mismatch', { ...ids, reasons: ['the signed version differs from SKILL.md'] });
  const key = checked.key!;
  if (key.names && !key.names.includes(meta.name)) return done('untrusted-key', { ...ids, reasons: [`key ${key.fingerprint} may not sign "${meta.name}"`] });
  if (checked.statement?.expires_at !== undefined && checked.statement.expires_at <= now) {
    return done('expired', { ...ids, reasons: [`signature expired at ${new Date(checked.statement.expires_at * 1000).toISOString()}`] });
  }
  const revoked = checkRevocation(trust, key.fingerprint, meta, now);
  if (revoked) return done(revoked.status, { ...ids, reasons: [revoked.reason] });
  const held = meta.version !== undefined ? options.state?.get(meta.name) : undefined;
  if (held !== undefined && compareVersions(meta.version!, held) < 0) {
    return done('rollback', { ...ids, reasons: [`version ${meta.version} is older than the accepted ${held}`] });
  }
  options.state?.accept(meta.name, meta.version);
  return done('verified', { ...ids, reasons: [`signed by ${key.signer}`] });
}

type Carrier =
  | { format: 'sidecar' | 'inline'; envelope: SkillEnvelope }
  | { format: 'minisign' | 'sshsig'; signature: string; manifest: Uint8Array | undefined }
  | { format: SkillFormat; malformed: string };

function findCarrier(bundle: SkillBundle, meta: SkillMeta): Carrier | undefined {
  const text = (path: string) => {
    const b = bundle.files.get(path);
    return b && new TextDecoder().decode(b);
  };
  const sidecar = text('SKILL.sig');
  if (sidecar !== undefined) {
    const envelope = parseEnvelope(sidecar);
    return envelope ? { format: 'sidecar', envelope } : { format: 'sidecar', malformed: 'SKILL.sig is not a parapet signature envelope' };
  }
  if (meta.xSignature !== undefined) {
    const envelope = parseInlineEnvelope(meta.xSignature);
    return envelope ? { format: 'inline', envelope } : { format: 'inline', malformed: 'x-signature is not a parapet signature envelope' };
  }
  const manifest = bundle.files.get('MANIFEST');
  const minisig = text('MANIFEST.minisig');
  if (minisig !== undefined) return { format: 'minisign', signature: minisig, manifest };
  const sshsig = text('MANIFEST.sig');
  if (sshsig !== undefined) return { format: 'sshsig', signature: sshsig, manifest };
  return undefined;
}

interface Checked {
  status?: SkillStatus;
  reason?: string;
  key?: TrustedKey;
  fingerprint?: string;
  signer?: string;
  signedManifest?: ManifestEntry[];
  statement?: SkillEnvelope['statement'];
}

function checkEnvelope(env: SkillEnvelope, trust: TrustRoot): Checked {
  const fp = env.statement.key_id;
  if (!envelopeSignatureValid(env)) return { status: 'bad-signature', reason: 'the signature does not verify under the key it names', fingerprint: fp };
  const key = trust.byFingerprint(fp);
  if (!key) return { status: 'untrusted-key', reason: `a valid signature by ${fp}, which the trust root does not hold`, fingerprint: fp };
  const signedManifest = parseManifest(env.manifest);
  if (!signedManifest || toHex(sha256(utf8(env.manifest))) !== env.statement.manifest_digest) {
    return { status: 'malformed', reason: 'the envelope manifest does not match the signed digest', fingerprint: fp };
  }
  return { key, fingerprint: fp, signer: key.signer, signedManifest, statement: env.statement };
}

/** minisign and SSHSIG sign the MANIFEST file shipped in the bundle. */
function checkDetached(carrier: Extract<Carrier, { signature: string }>, trust: TrustRoot): Checked {
  if (!carrier.manifest) return { status: 'malformed', reason: `${carrier.format} signature without a MANIFEST file` };
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(carrier.manifest);
  } catch {
    return { status: 'malformed', reason: 'MANIFEST is not UTF-8' };
  }
  const signedManifest = parseManifest(text);
  if (!signedManifest) return { status: 'malformed', reason: 'MANIFEST is not a manifest (<sha256>  <path> lines)' };
  if (carrier.format === 'sshsig') {
    const sig = parseSshSignature(carrier.signature);
    if (!sig) return { status: 'malformed', reason: 'MANIFEST.sig is not an SSH signature' };
    const fp = fingerprint(sig.publicKey);
    if (sig.namespace !== SSH_NAMESPACE) return { status: 'bad-signature', reason: `signed for namespace "${sig.namespace}", not "${SSH_NAMESPACE}"`, fingerprint: fp };
    if (!verifySshSignature(carrier.manifest, sig, SSH_NAMESPACE)) return { status: 'bad-signature', reason: 'the SSH signature does not verify', fingerprint: fp };
    const key = trust.byFingerprint(fp);
    if (!key) return { status: 'untrusted-key', reason: `a valid signature by ${fp}, which the trust root does not hold`, fingerprint: fp };
    return { key, fingerprint: fp, signer: key.signer, signedManifest };
  }
  const sig = parseMinisignSignature(carrier.signature);
  if (!sig) return { status: 'malformed', reason: 'MANIFEST.minisig is not a minisign signature' };
  // minisign names only a key id: look for a trusted minisign key with that id.
  const key = trust.keys.find((k) => k.minisign && bytesEqual(k.minisign.keyId, sig.keyId));
  if (!key) return { status: 'untrusted-key', reason: `signed by minisign key ${toHex(sig.keyId)}, which the trust root does not hold` };
  if (!verifyMinisign(carrier.manifest, sig, key.minisign!)) return { status: 'bad-signature', reason: 'the minisign signature or its trusted comment does not verify', fingerprint: key.fingerprint };
  return { key, fingerprint: key.fingerprint, signer: key.signer, signedManifest };
}

function checkRevocation(trust: TrustRoot, fp: string, meta: SkillMeta, now: number): { status: SkillStatus; reason: string } | undefined {
  const list = trust.revocations;
  if (!list) return undefined;
  // An expired list cannot say what has been revoked since: fail closed.
  if (list.expires_at <= now) return { status: 'revoked', reason: 'the revocation list has expired; refusing until it is renewed' };
  if (list.keys.includes(fp)) return { status: 'revoked', reason: `key ${fp} is revoked` };
  const hit = list.skills.find((s) => s.name === meta.name && (s.version === undefined || s.version === meta.version));
  if (hit) return { status: 'revoked', reason: `"${meta.name}"${hit.version ? ` ${hit.version}` : ''} is revoked` };
  return undefined;
}

function describeDiff(files: { added: readonly string[]; removed: readonly string[]; changed: readonly string[] }): string[] {
  return [
    ...files.added.map((p) => `added after signing: ${p}`),
    ...files.removed.map((p) => `removed after signing: ${p}`),
    ...files.changed.map((p) => `changed after signing: ${p}`),
  ];
}

/** Exposed for signers: the manifest of a bundle, or why there is none. */
export function bundleManifest(bundle: SkillBundle, options: { inline?: boolean } = {}): string {
  const m = buildManifest(bundle, options);
  if ('problems' in m) throw new ParapetRangeError(`bundle is malformed: ${m.problems.join('; ')}`, 'invalid-value');
  return manifestText(m.entries);
}

