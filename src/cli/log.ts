import { fromBase64, toBase64 } from '../index.js';
import {
  ALG_COSIGNATURE_V1, ALG_ED25519, formatCheckpoint, generateNoteKey, MerkleTree, openCheckpoint, signCheckpoint,
  verifyConsistency, verifyInclusion, type ProofResult,
} from '../tlog/index.js';
import { parseArgs, parseUserValue, stringFlag, UsageError, type ArgSpec } from './args.js';
import { printJson, readAll, readText } from './io.js';
import { originOf, signerKeyArg, verifierKeyArg } from './key-args.js';
import { writeKeyFiles } from './key-file.js';

export const LOG_USAGE = `parapet log <command> ...
  head LEAVES [--size N] [--json]                       tree size and RFC 6962 root
  prove-inclusion LEAVES --index I [--size N] [--json]  audit path for leaf I
  verify-inclusion PROOF.json [--json]                  check a proof written by prove-inclusion --json
  prove-consistency LEAVES --from N [--size M] [--json] proof that size N is a prefix of size M
  verify-consistency PROOF.json [--json]                check a proof written by prove-consistency --json
  keygen NAME [--cosigner] [--out PREFIX [--force]]     Ed25519 note key pair (PREFIX.key mode 600, PREFIX.pub)
  sign LEAVES --key KEYFILE [--origin O] [--size N]     signed C2SP checkpoint of the tree
  open NOTE --verifier KEY... [--origin O] [--json]     verify a signed checkpoint
LEAVES is a file (or -) with one leaf per line; each line's bytes, without the newline, are the leaf.
A checkpoint's origin defaults to the signing key's NAME (C2SP names a log's key after its origin).`;

/** What each subcommand takes; anything else is a usage error. */
const SPECS: Record<string, ArgSpec> = {
  head: { valued: ['size'], boolean: ['json'], maxPositionals: 1 },
  'prove-inclusion': { valued: ['index', 'size'], boolean: ['json'], maxPositionals: 1 },
  'verify-inclusion': { boolean: ['json'], maxPositionals: 1 },
  'prove-consistency': { valued: ['from', 'size'], boolean: ['json'], maxPositionals: 1 },
  'verify-consistency': { boolean: ['json'], maxPositionals: 1 },
  keygen: { valued: ['out'], boolean: ['cosigner', 'force'], maxPositionals: 1 },
  sign: { valued: ['key', 'origin', 'size'], maxPositionals: 1 },
  open: { valued: ['verifier', 'origin'], boolean: ['json'], repeatable: ['verifier'], maxPositionals: 1 },
};

async function treeOf(path: string | undefined): Promise<MerkleTree> {
  if (!path) throw new UsageError('LEAVES file is required');
  const text = await readAll(path, `LEAVES ${path}`);
  const leaves: Uint8Array[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === 0x0a) {
      leaves.push(text.subarray(start, i));
      start = i + 1;
    }
  }
  if (start < text.length) leaves.push(text.subarray(start));
  const tree = new MerkleTree();
  tree.appendMany(leaves);
  return tree;
}

function intFlag(flags: Map<string, string | true>, name: string, fallback?: number): number {
  const raw = flags.get(name);
  if (raw === undefined && fallback !== undefined) return fallback;
  if (typeof raw !== 'string' || !/^(0|[1-9][0-9]*)$/.test(raw)) throw new UsageError(`--${name} needs a non-negative integer`);
  return Number(raw);
}

/** A size, index or start within the tree read from LEAVES; beyond it is the user's mistake, not a failure. */
function boundedFlag(flags: Map<string, string | true>, name: string, max: number, what: string, fallback?: number): number {
  const value = intFlag(flags, name, fallback);
  if (value > max) throw new UsageError(`--${name} ${value} is beyond ${what} (${max})`);
  return value;
}

/** A proof's verdict, or a proof file's: malformed is a refusal too. */
type Verdict = { readonly ok: true } | { readonly ok: false; readonly code: string; readonly message: string };

function report(result: Verdict, json: boolean): number {
  if (json) printJson(result.ok ? { ok: true } : { ok: false, code: result.code, message: result.message });
  else process.stdout.write(result.ok ? 'ok: proof verifies\n' : `refused (${result.code}): ${result.message}\n`);
  return result.ok ? 0 : 1;
}

/** A proof file that is not a proof: refused (exit 1) naming the file and the field, like a proof that does not verify. */
class MalformedProof extends Error {}

/** The fields of a proof file written by prove-inclusion / prove-consistency --json. */
function readProof(path: string | undefined): { int(name: string): number; hash(name: string): Uint8Array; hashes(name: string): Uint8Array[] } {
  if (!path) throw new UsageError('a PROOF.json file is required');
  const text = readText(path, `PROOF.json ${path}`);
  let p: unknown;
  try {
    p = JSON.parse(text);
  } catch (e) {
    throw new MalformedProof(`${path} is not JSON (${(e as Error).message})`);
  }
  if (typeof p !== 'object' || p === null || Array.isArray(p)) throw new MalformedProof(`${path} is not a JSON object`);
  const fields = p as Record<string, unknown>;
  const b64 = (value: unknown, name: string) => {
    try {
      return fromBase64(value as string);
    } catch {
      throw new MalformedProof(`${path}: "${name}" is not base64`);
    }
  };
  return {
    int: (name) => {
      const v = fields[name];
      if (!Number.isSafeInteger(v) || (v as number) < 0) throw new MalformedProof(`${path}: "${name}" is not a non-negative integer`);
      return v as number;
    },
    hash: (name) => b64(fields[name], name),
    hashes: (name) => {
      const v = fields[name];
      if (!Array.isArray(v)) throw new MalformedProof(`${path}: "${name}" is not a list`);
      return v.map((h, i) => b64(h, `${name}[${i}]`));
    },
  };
}

function verifyProofFile(path: string | undefined, json: boolean, check: (p: ReturnType<typeof readProof>) => ProofResult): number {
  let result: Verdict;
  try {
    result = check(readProof(path));
  } catch (e) {
    if (!(e instanceof MalformedProof)) throw e;
    result = { ok: false, code: 'malformed', message: e.message };
  }
  return report(result, json);
}

export async function logCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || !Object.hasOwn(SPECS, sub)) throw new UsageError(sub ? `unknown log command '${sub}'` : 'log needs a command');
  const args = parseArgs(rest, `log ${sub}`, SPECS[sub]);
  const { positionals, flags } = args;
  const json = flags.has('json');
  const [arg] = positionals;
  switch (sub) {
    case 'head': {
      const tree = await treeOf(arg);
      const size = boundedFlag(flags, 'size', tree.size, 'the leaves in LEAVES', tree.size);
      const root = toBase64(tree.root(size));
      if (json) printJson({ size, root });
      else process.stdout.write(`size ${size}\nroot ${root}\n`);
      return 0;
    }
    case 'prove-inclusion': {
      const tree = await treeOf(arg);
      const size = boundedFlag(flags, 'size', tree.size, 'the leaves in LEAVES', tree.size);
      const index = intFlag(flags, 'index');
      if (index >= size) throw new UsageError(`--index ${index} is not below the tree size ${size}`);
      const out = {
        index, size, leafHash: toBase64(tree.leafHash(index)), root: toBase64(tree.root(size)),
        proof: tree.inclusionProof(index, size).map(toBase64),
      };
      if (json) printJson(out);
      else process.stdout.write(`index ${index}\nsize ${size}\nleaf ${out.leafHash}\nroot ${out.root}\n${out.proof.join('\n')}\n`);
      return 0;
    }
    case 'verify-inclusion':
      return verifyProofFile(arg, json, (p) => verifyInclusion(p.hash('leafHash'), p.int('index'), p.int('size'), p.hashes('proof'), p.hash('root')));
    case 'prove-consistency': {
      const tree = await treeOf(arg);
      const size2 = boundedFlag(flags, 'size', tree.size, 'the leaves in LEAVES', tree.size);
      const size1 = boundedFlag(flags, 'from', size2, 'the tree size');
      const out = {
        size1, size2, root1: toBase64(tree.root(size1)), root2: toBase64(tree.root(size2)),
        proof: tree.consistencyProof(size1, size2).map(toBase64),
      };
      if (json) printJson(out);
      else process.stdout.write(`from ${size1} (${out.root1})\nto ${size2} (${out.root2})\n${out.proof.join('\n')}\n`);
      return 0;
    }
    case 'verify-consistency':
      return verifyProofFile(arg, json, (p) => verifyConsistency(p.int('size1'), p.int('size2'), p.hashes('proof'), p.hash('root1'), p.hash('root2')));
    case 'keygen': {
      if (!arg) throw new UsageError('keygen needs a key NAME');
      if (flags.has('force') && !flags.has('out')) throw new UsageError('--force needs --out PREFIX');
      const keys = parseUserValue(`key NAME ${JSON.stringify(arg)}`, 'a key name must be non-empty, without spaces or +', () =>
        generateNoteKey(arg, flags.has('cosigner') ? ALG_COSIGNATURE_V1 : ALG_ED25519));
      const out = stringFlag(args, 'out');
      if (out !== undefined) {
        writeKeyFiles([
          { path: `${out}.key`, contents: `${keys.signerKey}\n`, mode: 0o600 },
          { path: `${out}.pub`, contents: `${keys.verifierKey}\n`, mode: 0o644 },
        ], flags.has('force'));
        process.stdout.write(`wrote ${out}.key (secret, mode 600) and ${out}.pub\n${keys.verifierKey}\n`);
      } else process.stdout.write(`${keys.signerKey}\n${keys.verifierKey}\n`);
      return 0;
    }
    case 'sign': {
      if (flags.has('origin') && !flags.has('key')) throw new UsageError('--origin needs --key');
      const keyFile = stringFlag(args, 'key');
      if (keyFile === undefined) throw new UsageError('sign needs --key KEYFILE');
      const signer = signerKeyArg('--key', keyFile);
      const origin = originOf(stringFlag(args, 'origin'), signer);
      const tree = await treeOf(arg);
      const size = boundedFlag(flags, 'size', tree.size, 'the leaves in LEAVES', tree.size);
      const checkpoint = { origin, size, root: tree.root(size), extensions: [] };
      parseUserValue('--origin', 'must be a non-empty single line', () => formatCheckpoint(checkpoint));
      process.stdout.write(signCheckpoint(checkpoint, [signer]));
      return 0;
    }
    case 'open': {
      if (!arg) throw new UsageError('open needs a NOTE file');
      const keys = args.values.get('verifier') ?? [];
      if (keys.length === 0) throw new UsageError('open needs at least one --verifier KEY');
      if (keys.includes('')) throw new UsageError('--verifier needs a value');
      const verifiers = keys.map((k) => verifierKeyArg('--verifier', k));
      const origin = stringFlag(args, 'origin');
      const result = openCheckpoint(await readAll(arg, `NOTE ${arg}`), verifiers, origin !== undefined ? { origin } : {});
      if (json) {
        printJson(result.ok ? { ok: true, origin: result.checkpoint.origin, size: result.checkpoint.size, root: toBase64(result.checkpoint.root), verified: result.verified, unknown: result.unknown } : result);
      } else if (result.ok) {
        process.stdout.write(`ok: ${result.checkpoint.origin} size ${result.checkpoint.size} root ${toBase64(result.checkpoint.root)}\nsigned by ${result.verified.join(', ')}${result.unknown.length ? `; ignored unknown ${result.unknown.map((u) => u.name).join(', ')}` : ''}\n`);
      } else process.stdout.write(`refused (${result.code}): ${result.message}\n`);
      return result.ok ? 0 : 1;
    }
    default:
      throw new UsageError(`unknown log command '${sub}'`);
  }
}
