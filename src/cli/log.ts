import { readFileSync } from 'node:fs';
import { fromBase64, toBase64 } from '../index.js';
import {
  ALG_COSIGNATURE_V1, ALG_ED25519, formatCheckpoint, generateNoteKey, MerkleTree, openCheckpoint, signCheckpoint,
  verifyConsistency, verifyInclusion, type ProofResult,
} from '../tlog/index.js';
import { allowFlags, parseArgs, parseUserValue, requireTogether, stringFlag, UsageError } from './args.js';
import { printJson, readAll } from './io.js';
import { signerKeyArg, verifierKeyArg } from './key-args.js';
import { writeKeyFiles } from './key-file.js';

export const LOG_USAGE = `parapet log <command> ...
  head LEAVES [--size N] [--json]                       tree size and RFC 6962 root
  prove-inclusion LEAVES --index I [--size N] [--json]  audit path for leaf I
  verify-inclusion PROOF.json                           check a proof written by prove-inclusion --json
  prove-consistency LEAVES --from N [--size M] [--json] proof that size N is a prefix of size M
  verify-consistency PROOF.json                         check a proof written by prove-consistency --json
  keygen NAME [--cosigner] [--out PREFIX [--force]]     Ed25519 note key pair (PREFIX.key mode 600, PREFIX.pub)
  sign LEAVES --key KEYFILE --origin ORIGIN [--size N]  signed C2SP checkpoint of the tree
  open NOTE --verifier KEY... [--origin O] [--json]     verify a signed checkpoint
LEAVES is a file (or -) with one leaf per line; each line's bytes, without the newline, are the leaf.`;

const VALUED = ['size', 'index', 'from', 'key', 'origin', 'out', 'verifier'];

/** The flags each subcommand takes; any other is a usage error. */
const FLAGS: Record<string, readonly string[]> = {
  head: ['size', 'json'],
  'prove-inclusion': ['index', 'size', 'json'],
  'verify-inclusion': ['json'],
  'prove-consistency': ['from', 'size', 'json'],
  'verify-consistency': ['json'],
  keygen: ['cosigner', 'out', 'force'],
  sign: ['key', 'origin', 'size'],
  open: ['verifier', 'origin', 'json'],
};

async function treeOf(path: string | undefined): Promise<MerkleTree> {
  if (!path) throw new UsageError('LEAVES file is required');
  const text = await readAll(path);
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

function report(result: ProofResult, json: boolean): number {
  if (json) printJson(result.ok ? { ok: true } : { ok: false, code: result.code, message: result.message });
  else process.stdout.write(result.ok ? 'ok: proof verifies\n' : `refused (${result.code}): ${result.message}\n`);
  return result.ok ? 0 : 1;
}

function readJson(path: string | undefined): Record<string, unknown> {
  if (!path) throw new UsageError('a proof JSON file is required');
  return JSON.parse(readFileSync(path === '-' ? 0 : path, 'utf8')) as Record<string, unknown>;
}

const b64List = (v: unknown) => (Array.isArray(v) ? v.map((s) => fromBase64(String(s))) : []);

export async function logCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const args = parseArgs(rest, VALUED);
  const { positionals, flags } = args;
  if (sub !== undefined && Object.hasOwn(FLAGS, sub)) allowFlags(args, `log ${sub}`, FLAGS[sub]!);
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
    case 'verify-inclusion': {
      const p = readJson(arg);
      return report(verifyInclusion(fromBase64(String(p.leafHash)), Number(p.index), Number(p.size), b64List(p.proof), fromBase64(String(p.root))), json);
    }
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
    case 'verify-consistency': {
      const p = readJson(arg);
      return report(verifyConsistency(Number(p.size1), Number(p.size2), b64List(p.proof), fromBase64(String(p.root1)), fromBase64(String(p.root2))), json);
    }
    case 'keygen': {
      if (!arg) throw new UsageError('keygen needs a key NAME');
      if (flags.has('force') && !flags.has('out')) throw new UsageError('--force needs --out PREFIX');
      const keys = parseUserValue(`key NAME ${JSON.stringify(arg)}`, () => generateNoteKey(arg, flags.has('cosigner') ? ALG_COSIGNATURE_V1 : ALG_ED25519));
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
      requireTogether(args, ['key', 'origin']);
      const keyFile = stringFlag(args, 'key');
      const origin = stringFlag(args, 'origin');
      if (keyFile === undefined || origin === undefined) throw new UsageError('sign needs --key KEYFILE and --origin ORIGIN');
      const tree = await treeOf(arg);
      const size = boundedFlag(flags, 'size', tree.size, 'the leaves in LEAVES', tree.size);
      const checkpoint = { origin, size, root: tree.root(size), extensions: [] };
      parseUserValue('--origin', () => formatCheckpoint(checkpoint));
      process.stdout.write(signCheckpoint(checkpoint, [signerKeyArg('--key', keyFile)]));
      return 0;
    }
    case 'open': {
      if (!arg) throw new UsageError('open needs a NOTE file');
      const keys = rest.flatMap((a, i) => (rest[i - 1] === '--verifier' ? [a] : a.startsWith('--verifier=') ? [a.slice(11)] : []));
      if (keys.length === 0) throw new UsageError('open needs at least one --verifier KEY');
      if (keys.includes('')) throw new UsageError('--verifier needs a value');
      const verifiers = keys.map((k) => verifierKeyArg('--verifier', k));
      const origin = stringFlag(args, 'origin');
      const result = openCheckpoint(await readAll(arg), verifiers, origin !== undefined ? { origin } : {});
      if (json) {
        printJson(result.ok ? { ok: true, origin: result.checkpoint.origin, size: result.checkpoint.size, root: toBase64(result.checkpoint.root), verified: result.verified, unknown: result.unknown } : result);
      } else if (result.ok) {
        process.stdout.write(`ok: ${result.checkpoint.origin} size ${result.checkpoint.size} root ${toBase64(result.checkpoint.root)}\nsigned by ${result.verified.join(', ')}${result.unknown.length ? `; ignored unknown ${result.unknown.map((u) => u.name).join(', ')}` : ''}\n`);
      } else process.stdout.write(`refused (${result.code}): ${result.message}\n`);
      return result.ok ? 0 : 1;
    }
    default:
      throw new UsageError(sub ? `unknown log command '${sub}'` : 'log needs a command');
  }
}
