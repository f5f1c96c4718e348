import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromBase64, toBase64 } from '../index.js';
import { ed25519PublicKey } from '../crypto/ed25519.js';
import { fingerprint, generateSkillKey, signSkill, SkillRatchet, TrustRoot, verifySkillSignature, type SkillMode, type TrustRootConfig } from '../skills/index.js';
import { loadSkillFolder } from '../skills/node.js';
import { allowFlags, parseArgs, parseUserValue, stringFlag, UsageError } from './args.js';
import { printJson } from './io.js';
import { writeKeyFiles } from './key-file.js';

export const SKILL_USAGE = `parapet skill <command> ...
  keygen --out PREFIX [--force]                          Ed25519 key: PREFIX.key (secret, mode 600), PREFIX.pub
  sign DIR --key KEYFILE [--carrier sidecar|inline|minisign|sshsig] [--expires-in DAYS]
  verify DIR --trust TRUST.json [--mode enforce|warn|off] [--state STATE.json] [--json]
TRUST.json is a trust root: { "keys": [{ "fingerprint": "sha256:…", "signer": "…" }], "allow": [], "deny": [] }.`;

/** The flags each subcommand takes; any other is a usage error. */
const FLAGS: Record<string, readonly string[]> = {
  keygen: ['out', 'force'],
  sign: ['key', 'carrier', 'inline', 'expires-in'],
  verify: ['trust', 'mode', 'state', 'json'],
};
const CARRIERS = ['sidecar', 'inline', 'minisign', 'sshsig'] as const;
const MODES: readonly SkillMode[] = ['enforce', 'warn', 'off'];

export async function skillCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const args = parseArgs(rest, ['out', 'key', 'expires-in', 'trust', 'mode', 'state', 'carrier']);
  const { positionals, flags } = args;
  if (sub !== undefined && Object.hasOwn(FLAGS, sub)) allowFlags(args, `skill ${sub}`, FLAGS[sub]!);
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
    case 'sign': {
      const keyFile = stringFlag(args, 'key');
      if (!dir || keyFile === undefined) throw new UsageError('sign needs DIR and --key KEYFILE');
      const chosen = stringFlag(args, 'carrier');
      if (chosen !== undefined && !(CARRIERS as readonly string[]).includes(chosen)) throw new UsageError(`--carrier must be one of ${CARRIERS.join(', ')}`);
      if (flags.has('inline') && chosen !== undefined && chosen !== 'inline') throw new UsageError(`--inline contradicts --carrier ${chosen}`);
      const carrier = (flags.has('inline') ? 'inline' : (chosen ?? 'sidecar')) as (typeof CARRIERS)[number];
      const days = stringFlag(args, 'expires-in');
      if (days !== undefined && !(/^[0-9]+(\.[0-9]+)?$/.test(days) && Number(days) > 0)) throw new UsageError('--expires-in needs a positive number of days');
      const text = readFileSync(keyFile, 'utf8').trim();
      const secretKey = parseUserValue(`--key ${keyFile}`, () => {
        const key = fromBase64(text);
        ed25519PublicKey(key); // a wrong length is the user's key file, not a signing failure
        return key;
      });
      const now = Math.floor(Date.now() / 1000);
      const before = loadSkillFolder(dir);
      const bundle = signSkill(before, secretKey, {
        carrier,
        issuedAt: now,
        ...(days !== undefined ? { expiresAt: now + Math.round(Number(days) * 86400) } : {}),
      });
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
      const trustText = readFileSync(trustFile, 'utf8');
      // The trust root is the operator's configuration: a broken one is a usage error, never a verdict.
      const trustRoot = parseUserValue(`--trust ${trustFile}`, () => new TrustRoot(JSON.parse(trustText) as TrustRootConfig));
      const stateFile = stringFlag(args, 'state');
      const state = typeof stateFile === 'string' ? loadState(stateFile) : undefined;
      let bundle;
      try {
        bundle = loadSkillFolder(dir);
      } catch (e) {
        const message = (e as Error).message;
        const result = { ok: false, code: 'malformed', message, status: 'malformed', allowed: mode !== 'enforce', mode, reasons: [message] };
        if (flags.has('json')) printJson(result);
        else process.stdout.write(`malformed: ${message}\n`);
        return result.allowed ? 0 : 1;
      }
      const result = verifySkillSignature(bundle, { trustRoot, mode, ...(state ? { state } : {}) });
      if (state && typeof stateFile === 'string') writeFileSync(stateFile, `${JSON.stringify(state)}\n`);
      if (flags.has('json')) printJson(result);
      else {
        process.stdout.write(`${result.status}${result.allowed ? '' : ' (refused)'}: ${result.name ?? dir}${result.version ? ` ${result.version}` : ''} [${result.format}]\n`);
        for (const r of result.reasons) process.stdout.write(`  ${r}\n`);
      }
      return result.allowed ? 0 : 1;
    }
    default:
      throw new UsageError(sub ? `unknown skill command '${sub}'` : 'skill needs a command');
  }
}

function loadState(file: string): SkillRatchet {
  try {
    return SkillRatchet.fromJSON(JSON.parse(readFileSync(file, 'utf8')));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return new SkillRatchet();
    throw e;
  }
}
