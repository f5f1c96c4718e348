import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fromBase64, toBase64 } from '../index.js';
import { ed25519PublicKey } from '../crypto/ed25519.js';
import { fingerprint, generateSkillKey, signSkill, SkillRatchet, verifySkillSignature, type SkillMode, type TrustRootConfig } from '../skills/index.js';
import { loadSkillFolder } from '../skills/node.js';
import { parseArgs, UsageError } from './args.js';
import { printJson } from './io.js';

export const SKILL_USAGE = `parapet skill <command> ...
  keygen --out PREFIX                                    Ed25519 key: PREFIX.key (secret, mode 600), PREFIX.pub
  sign DIR --key KEYFILE [--carrier sidecar|inline|minisign|sshsig] [--expires-in DAYS]
  verify DIR --trust TRUST.json [--mode enforce|warn|off] [--state STATE.json] [--json]
TRUST.json is a trust root: { "keys": [{ "fingerprint": "sha256:…", "signer": "…" }], "allow": [], "deny": [] }.`;

export async function skillCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { positionals, flags } = parseArgs(rest, ['out', 'key', 'expires-in', 'trust', 'mode', 'state', 'carrier']);
  const dir = positionals[0];
  switch (sub) {
    case 'keygen': {
      const out = flags.get('out');
      if (typeof out !== 'string') throw new UsageError('keygen needs --out PREFIX');
      const k = generateSkillKey();
      writeFileSync(`${out}.key`, `${toBase64(k.secretKey)}\n`, { mode: 0o600 });
      writeFileSync(`${out}.pub`, `${toBase64(k.publicKey)}\n`);
      process.stdout.write(`wrote ${out}.key (secret) and ${out}.pub\nfingerprint ${k.fingerprint}\n`);
      return 0;
    }
    case 'sign': {
      const keyFile = flags.get('key');
      if (!dir || typeof keyFile !== 'string') throw new UsageError('sign needs DIR and --key KEYFILE');
      const secretKey = fromBase64(readFileSync(keyFile, 'utf8').trim());
      const days = flags.get('expires-in');
      const now = Math.floor(Date.now() / 1000);
      const carrier = (flags.has('inline') ? 'inline' : (flags.get('carrier') ?? 'sidecar')) as 'sidecar' | 'inline' | 'minisign' | 'sshsig';
      const before = loadSkillFolder(dir);
      const bundle = signSkill(before, secretKey, {
        carrier,
        issuedAt: now,
        ...(typeof days === 'string' ? { expiresAt: now + Math.round(Number(days) * 86400) } : {}),
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
      const trustFile = flags.get('trust');
      if (!dir || typeof trustFile !== 'string') throw new UsageError('verify needs DIR and --trust TRUST.json');
      const trustRoot = JSON.parse(readFileSync(trustFile, 'utf8')) as TrustRootConfig;
      const mode = (flags.get('mode') ?? 'enforce') as SkillMode;
      const stateFile = flags.get('state');
      const state = typeof stateFile === 'string' ? loadState(stateFile) : undefined;
      let bundle;
      try {
        bundle = loadSkillFolder(dir);
      } catch (e) {
        const result = { status: 'malformed', valid: mode !== 'enforce', reasons: [(e as Error).message] };
        if (flags.has('json')) printJson(result);
        else process.stdout.write(`malformed: ${result.reasons[0]}\n`);
        return result.valid ? 0 : 1;
      }
      const result = verifySkillSignature(bundle, { trustRoot, mode, ...(state ? { state } : {}) });
      if (state && typeof stateFile === 'string') writeFileSync(stateFile, `${JSON.stringify(state)}\n`);
      if (flags.has('json')) printJson(result);
      else {
        process.stdout.write(`${result.status}${result.valid ? '' : ' (refused)'}: ${result.name ?? dir}${result.version ? ` ${result.version}` : ''} [${result.format}]\n`);
        for (const r of result.reasons) process.stdout.write(`  ${r}\n`);
      }
      return result.valid ? 0 : 1;
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
