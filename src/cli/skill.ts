import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromBase64, toBase64 } from '../index.js';
import { ParapetRangeError } from '../bindings/errors.js';
import { ed25519PublicKey } from '../crypto/ed25519.js';
import {
  fingerprint, generateSkillKey, minisignKeyId, minisignPublicKeyFile, signSkill, SkillRatchet, sshPublicKeyLine, TrustRoot,
  verifySkillSignature, type SkillMode, type TrustRootConfig,
} from '../skills/index.js';
import { loadSkillFolder } from '../skills/node.js';
import { parseArgs, parseUserValue, stringFlag, UsageError, type ArgSpec } from './args.js';
import { fileError, printJson, readText } from './io.js';
import { writeKeyFiles } from './key-file.js';

export const SKILL_USAGE = `parapet skill <command> ...
  keygen --out PREFIX [--force]                          Ed25519 key: PREFIX.key (secret, mode 600), PREFIX.pub
  pubkey PREFIX.pub [--format trust|minisign|openssh]    the public key as a trust-root entry, a minisign .pub, an ssh-ed25519 line
  sign DIR --key KEYFILE [--carrier sidecar|inline|minisign|sshsig] [--expires-in DAYS]
  verify DIR --trust TRUST.json [--mode enforce|warn|off] [--state STATE.json] [--json]
TRUST.json is a trust root. This one pins the signing key by its fingerprint (keygen prints it):
  { "keys": [{ "fingerprint": "sha256:…", "signer": "acme" }] }
Optional: "names" on a key (the skills it may sign), "deny": [names], "allow": [names] (then only
those names load; an empty list refuses every skill), "revocations". A bundle signed by minisign -S
needs its key's minisign public key as "publicKey" on the entry.`;

/** What each subcommand takes; anything else is a usage error. */
const SPECS: Record<string, ArgSpec> = {
  keygen: { valued: ['out'], boolean: ['force'] },
  pubkey: { valued: ['format'], maxPositionals: 1 },
  sign: { valued: ['key', 'carrier', 'expires-in'], boolean: ['inline'], maxPositionals: 1 },
  verify: { valued: ['trust', 'mode', 'state'], boolean: ['json'], maxPositionals: 1 },
};
const CARRIERS = ['sidecar', 'inline', 'minisign', 'sshsig'] as const;
const MODES: readonly SkillMode[] = ['enforce', 'warn', 'off'];
const FORMATS = ['trust', 'minisign', 'openssh'] as const;

/** A key file keygen wrote: base64 of 32 bytes. `what` says which, for the message (the contents are never echoed). */
function keyFile(flag: string, path: string, what: string): Uint8Array {
  const text = readText(path, `${flag}${path}`).trim();
  return parseUserValue(`${flag}${path}`, `not ${what} (base64 of 32 bytes, as \`parapet skill keygen\` writes it)`, () => {
    const key = fromBase64(text);
    if (key.length !== 32) throw new ParapetRangeError('not 32 bytes');
    return key;
  });
}

export async function skillCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || !Object.hasOwn(SPECS, sub)) throw new UsageError(sub ? `unknown skill command '${sub}'` : 'skill needs a command');
  const args = parseArgs(rest, `skill ${sub}`, SPECS[sub]);
  const { positionals, flags } = args;
  const dir = positionals[0];
  switch (sub) {
    case 'keygen': {
      const out = stringFlag(args, 'out');
      if (out === undefined) throw new UsageError('keygen needs --out PREFIX');
      const k = generateSkillKey();
      writeKeyFiles([
        { path: `${out}.key`, contents: `${toBase64(k.secretKey)}\n`, mode: 0o600 },
        { path: `${out}.pub`, contents: `${toBase64(k.publicKey)}\n`, mode: 0o644 },
      ], flags.has('force'));
      process.stdout.write(`wrote ${out}.key (secret, mode 600) and ${out}.pub\nfingerprint ${k.fingerprint}\n`);
      return 0;
    }
    case 'pubkey': {
      if (!dir) throw new UsageError('pubkey needs the PREFIX.pub file keygen wrote');
      const format = stringFlag(args, 'format') ?? 'trust';
      if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`);
      const publicKey = keyFile('', dir, 'a skill public key');
      const fp = fingerprint(publicKey);
      if (format === 'minisign') process.stdout.write(minisignPublicKeyFile(publicKey, minisignKeyId(publicKey)));
      else if (format === 'openssh') process.stdout.write(`${sshPublicKeyLine(publicKey, fp)}\n`);
      else printJson({ fingerprint: fp, publicKey: toBase64(publicKey) });
      return 0;
    }
    case 'sign': {
      const keyPath = stringFlag(args, 'key');
      if (!dir || keyPath === undefined) throw new UsageError('sign needs DIR and --key KEYFILE');
      const chosen = stringFlag(args, 'carrier');
      if (chosen !== undefined && !(CARRIERS as readonly string[]).includes(chosen)) throw new UsageError(`--carrier must be one of ${CARRIERS.join(', ')}`);
      if (flags.has('inline') && chosen !== undefined && chosen !== 'inline') throw new UsageError(`--inline contradicts --carrier ${chosen}`);
      const carrier = (flags.has('inline') ? 'inline' : (chosen ?? 'sidecar')) as (typeof CARRIERS)[number];
      const now = Math.floor(Date.now() / 1000);
      const days = stringFlag(args, 'expires-in');
      const seconds = days === undefined ? undefined : Math.round(Number(days) * 86400);
      // At least a second from now and a time the signature can carry (a safe integer).
      if (days !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(days) && seconds! >= 1 && Number.isSafeInteger(now + seconds!))) {
        throw new UsageError('--expires-in needs a positive number of days (at least one second)');
      }
      const secretKey = keyFile('--key ', keyPath, 'a skill secret key');
      const before = loadFolder(dir);
      const bundle = parseUserValue(`DIR ${dir}`, undefined, () => signSkill(before, secretKey, {
        carrier,
        issuedAt: now,
        ...(seconds !== undefined ? { expiresAt: now + seconds } : {}),
      }));
      // Write what signing added or changed (carriers, and SKILL.md for inline), and
      // remove the carriers it replaced: one left behind is a second carrier, which verify refuses.
      for (const [path, bytes] of bundle.files) {
        const old = before.files.get(path);
        if (!old || Buffer.compare(old, bytes) !== 0) writeFileSync(join(dir, path), bytes);
      }
      for (const path of before.files.keys()) if (!bundle.files.has(path)) rmSync(join(dir, path));
      process.stdout.write(`signed ${dir} with ${fingerprint(ed25519PublicKey(secretKey))}\n`);
      return 0;
    }
    case 'verify': {
      const trustFile = stringFlag(args, 'trust');
      if (!dir || trustFile === undefined) throw new UsageError('verify needs DIR and --trust TRUST.json');
      const mode = (stringFlag(args, 'mode') ?? 'enforce') as SkillMode;
      if (!MODES.includes(mode)) throw new UsageError(`--mode must be one of ${MODES.join(', ')}`);
      const trustText = readText(trustFile, `--trust ${trustFile}`);
      // The trust root is the operator's configuration: a broken one is a usage error, never a verdict.
      const trustRoot = parseUserValue(`--trust ${trustFile}`, undefined, () => new TrustRoot(JSON.parse(trustText) as TrustRootConfig));
      const stateFile = stringFlag(args, 'state');
      const state = stateFile === undefined ? undefined : loadState(stateFile);
      let bundle;
      try {
        bundle = loadFolder(dir);
      } catch (e) {
        if (!(e instanceof UsageError)) throw e;
        const message = e.message;
        const result = { ok: false, code: 'malformed', message, status: 'malformed', allowed: mode !== 'enforce', mode, reasons: [message] };
        if (flags.has('json')) printJson(result);
        else process.stdout.write(`malformed: ${message}\n`);
        return result.allowed ? 0 : 1;
      }
      const result = verifySkillSignature(bundle, { trustRoot, mode, ...(state ? { state } : {}) });
      if (state && stateFile !== undefined) writeFileSync(stateFile, `${JSON.stringify(state)}\n`);
      if (flags.has('json')) printJson(result);
      else {
        process.stdout.write(`${result.status}${result.allowed ? '' : ' (refused)'}: ${result.name ?? dir}${result.version ? ` ${result.version}` : ''} [${result.format}]\n`);
        for (const r of result.reasons) process.stdout.write(`  ${r}\n`);
      }
      return result.allowed ? 0 : 1;
    }
    default:
      throw new UsageError(`unknown skill command '${sub}'`);
  }
}

/**
 * The folder as a bundle. A folder that cannot be read names DIR (exit 1); one
 * whose content cannot be a bundle (a link, a name that is not UTF-8) is a
 * UsageError naming DIR, which verify reports as malformed. loadSkillFolder
 * wraps the system's error in a typed one: a missing folder is the user's
 * path, not a malformed bundle, so its cause decides.
 */
function loadFolder(dir: string) {
  return parseUserValue(`DIR ${dir}`, undefined, () => {
    try {
      return loadSkillFolder(dir);
    } catch (e) {
      const cause = e instanceof ParapetRangeError ? e.cause : e;
      if (typeof (cause as NodeJS.ErrnoException | undefined)?.code === 'string') throw fileError(`DIR ${dir}`, cause);
      throw e;
    }
  });
}

/** The version ratchet's file: absent is a fresh ratchet; unreadable or not a ratchet is a usage error naming it. */
function loadState(file: string): SkillRatchet {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new SkillRatchet();
    throw fileError(`--state ${file}`, e);
  }
  return parseUserValue(`--state ${file}`, undefined, () => SkillRatchet.fromJSON(JSON.parse(text)));
}
