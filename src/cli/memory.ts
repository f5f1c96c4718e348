import { readFileSync } from 'node:fs';
import { toBase64 } from '../index.js';
import { VmgMemoryStore } from '../vmg/index.js';
import { SqliteBackend } from '../vmg/sqlite.js';
import { formatCheckpoint } from '../tlog/index.js';
import { allowFlags, parseArgs, parseUserValue, requireTogether, stringFlag, UsageError } from './args.js';
import { printJson } from './io.js';
import { signerKeyArg, verifierKeyArg } from './key-args.js';

export const MEMORY_USAGE = `parapet memory <command> --db FILE ...
  history KEY [--namespace NS] [--json]                  every version of KEY
  get KEY [--namespace NS] [--as-of V] [--include-quarantined] [--json]
  verify [--checkpoint NOTE --verifier KEY --origin O] [--json]  walk the log; exit 1 if tampered
  checkpoint --key KEYFILE --origin ORIGIN               sign the current tree head`;

/** The flags each subcommand takes; any other is a usage error. */
const FLAGS: Record<string, readonly string[]> = {
  history: ['db', 'namespace', 'json'],
  get: ['db', 'namespace', 'as-of', 'include-quarantined', 'json'],
  verify: ['db', 'checkpoint', 'verifier', 'origin', 'json'],
  checkpoint: ['db', 'key', 'origin'],
};

export async function memoryCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const args = parseArgs(rest, ['db', 'namespace', 'as-of', 'checkpoint', 'verifier', 'key', 'origin']);
  const { positionals, flags } = args;
  if (sub === undefined || !Object.hasOwn(FLAGS, sub)) throw new UsageError(sub ? `unknown memory command '${sub}'` : 'memory needs a command');
  allowFlags(args, `memory ${sub}`, FLAGS[sub]!);
  const db = stringFlag(args, 'db');
  if (db === undefined) throw new UsageError('--db FILE is required');
  const json = flags.has('json');
  const ns = stringFlag(args, 'namespace');
  const origin = stringFlag(args, 'origin');
  const keyFile = stringFlag(args, 'key');
  // A checkpoint is only checked with the key that signed it and the origin it
  // names; one of them alone used to be ignored and the walk reported "ok".
  if (sub === 'verify') requireTogether(args, ['checkpoint', 'verifier', 'origin']);
  if (sub === 'checkpoint') {
    requireTogether(args, ['key', 'origin']);
    if (keyFile === undefined || origin === undefined) throw new UsageError('checkpoint needs --key KEYFILE and --origin ORIGIN');
    parseUserValue('--origin', () => formatCheckpoint({ origin, size: 0, root: new Uint8Array(32), extensions: [] }));
  }
  if ((sub === 'history' || sub === 'get') && !positionals[0]) throw new UsageError(`${sub} needs a KEY`);
  const asOfText = stringFlag(args, 'as-of');
  if (asOfText !== undefined && !/^[1-9][0-9]*$/.test(asOfText)) throw new UsageError('--as-of needs a version number (1 or more)');
  const checkpointFile = stringFlag(args, 'checkpoint');
  const verifierText = stringFlag(args, 'verifier');
  const verifier = verifierText === undefined ? undefined : verifierKeyArg('--verifier', verifierText);
  const signer = keyFile === undefined ? undefined : signerKeyArg('--key', keyFile);
  const store = await VmgMemoryStore.open({
    backend: new SqliteBackend(db, { create: false }), // a mistyped path must not read as an empty, valid store
    agentId: 'parapet-cli',
    sessionId: `cli-${process.pid}`,
    ...(signer ? { signer } : {}),
    ...(origin !== undefined ? { origin } : {}),
  });
  try {
    switch (sub) {
      case 'history': {
        const key = positionals[0]!;
        const items = await store.history(key, { namespace: ns });
        if (json) printJson(items);
        else for (const r of items) process.stdout.write(`v${r.version} ${r.policyTag.padEnd(10)} ${r.erased ? '(erased)' : JSON.stringify(r.value)}  by ${r.provenance.agentId}/${r.provenance.sessionId} ${new Date(r.provenance.timestamp).toISOString()}${r.quarantined ? ' [quarantined]' : ''}\n`);
        return 0;
      }
      case 'get': {
        const key = positionals[0]!;
        const got = await store.get(key, { namespace: ns, includeQuarantined: flags.has('include-quarantined'), ...(asOfText !== undefined ? { version: Number(asOfText) } : {}) });
        if (!got) {
          process.stdout.write(json ? 'null\n' : `no value for ${key}\n`);
          return 1;
        }
        const proof = { seq: got.proof.seq, size: got.proof.size, leafHash: toBase64(got.proof.leafHash), root: toBase64(got.proof.root), proof: got.proof.proof.map(toBase64) };
        if (json) printJson({ record: got.record, proof });
        else process.stdout.write(`${JSON.stringify(got.record.value)}\nversion ${got.record.version} (${got.record.policyTag}), entry ${proof.seq} of ${proof.size}, root ${proof.root}\n`);
        return 0;
      }
      case 'verify': {
        const report = await store.verify();
        const against = checkpointFile !== undefined && verifier !== undefined
          ? await store.verifyAgainst(readFileSync(checkpointFile, 'utf8'), verifier.text)
          : undefined;
        const ok = report.ok && (against?.ok ?? true);
        if (json) printJson({ ...report, entries: report.entries.filter((e) => e.status !== 'ok'), against });
        else {
          process.stdout.write(`${report.size} entries: ${report.counts.ok} ok, ${report.counts.erased} erased, ${report.counts.tampered} tampered\n`);
          for (const e of report.entries.filter((x) => x.status === 'tampered')) process.stdout.write(`  entry ${e.seq} (${e.op ?? '?'} ${e.key ?? '?'} v${e.version ?? '?'}): ${e.reasons.join(', ')}\n`);
          for (const p of report.problems) process.stdout.write(`  log: ${p.code}: ${p.message}\n`);
          if (against) process.stdout.write(against.ok ? `  extends the checkpoint at size ${against.checkpointSize}\n` : `  checkpoint: ${against.code}: ${against.message}\n`);
          process.stdout.write(ok ? 'ok\n' : 'TAMPERED\n');
        }
        return ok ? 0 : 1;
      }
      case 'checkpoint': {
        process.stdout.write(await store.checkpoint());
        return 0;
      }
      default:
        throw new UsageError(sub ? `unknown memory command '${sub}'` : 'memory needs a command');
    }
  } finally {
    await store.close();
  }
}
