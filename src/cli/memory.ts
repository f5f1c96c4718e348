import { readFileSync } from 'node:fs';
import { toBase64 } from '../index.js';
import { parseSignerKey } from '../tlog/index.js';
import { VmgMemoryStore } from '../vmg/index.js';
import { SqliteBackend } from '../vmg/sqlite.js';
import { parseArgs, UsageError } from './args.js';
import { printJson } from './io.js';

export const MEMORY_USAGE = `parapet memory <command> --db FILE ...
  history KEY [--namespace NS] [--json]                  every version of KEY
  get KEY [--namespace NS] [--as-of V] [--include-quarantined] [--json]
  verify [--checkpoint NOTE --verifier KEY --origin O] [--json]  walk the log; exit 1 if tampered
  checkpoint --key KEYFILE --origin ORIGIN               sign the current tree head`;

export async function memoryCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  const { positionals, flags } = parseArgs(rest, ['db', 'namespace', 'as-of', 'checkpoint', 'verifier', 'key', 'origin']);
  const db = flags.get('db');
  if (typeof db !== 'string') throw new UsageError('--db FILE is required');
  const json = flags.has('json');
  const ns = typeof flags.get('namespace') === 'string' ? (flags.get('namespace') as string) : undefined;
  const origin = typeof flags.get('origin') === 'string' ? (flags.get('origin') as string) : undefined;
  const keyFile = flags.get('key');
  const store = await VmgMemoryStore.open({
    backend: new SqliteBackend(db, { create: false }), // a mistyped path must not read as an empty, valid store
    agentId: 'parapet-cli',
    sessionId: `cli-${process.pid}`,
    ...(typeof keyFile === 'string' ? { signer: parseSignerKey(readFileSync(keyFile, 'utf8').trim()) } : {}),
    ...(origin ? { origin } : {}),
  });
  try {
    switch (sub) {
      case 'history': {
        const key = positionals[0];
        if (!key) throw new UsageError('history needs a KEY');
        const items = await store.history(key, { namespace: ns });
        if (json) printJson(items);
        else for (const r of items) process.stdout.write(`v${r.version} ${r.policy_tag.padEnd(10)} ${r.erased ? '(erased)' : JSON.stringify(r.value)}  by ${r.provenance.agent_id}/${r.provenance.session_id} ${new Date(r.provenance.timestamp).toISOString()}${r.quarantined ? ' [quarantined]' : ''}\n`);
        return 0;
      }
      case 'get': {
        const key = positionals[0];
        if (!key) throw new UsageError('get needs a KEY');
        const asOf = flags.get('as-of');
        const got = await store.get(key, { namespace: ns, includeQuarantined: flags.has('include-quarantined'), ...(typeof asOf === 'string' ? { asOf: Number(asOf) } : {}) });
        if (!got) {
          process.stdout.write(json ? 'null\n' : `no value for ${key}\n`);
          return 1;
        }
        const proof = { seq: got.proof.seq, size: got.proof.size, leafHash: toBase64(got.proof.leafHash), root: toBase64(got.proof.root), proof: got.proof.proof.map(toBase64) };
        if (json) printJson({ record: got.record, proof });
        else process.stdout.write(`${JSON.stringify(got.record.value)}\nversion ${got.record.version} (${got.record.policy_tag}), entry ${proof.seq} of ${proof.size}, root ${proof.root}\n`);
        return 0;
      }
      case 'verify': {
        const report = await store.verify();
        const cp = flags.get('checkpoint');
        const verifier = flags.get('verifier');
        const against = typeof cp === 'string' && typeof verifier === 'string'
          ? await store.verifyAgainst(readFileSync(cp, 'utf8'), verifier.includes('+') ? verifier : readFileSync(verifier, 'utf8').trim())
          : undefined;
        const ok = report.ok && (against?.valid ?? true);
        if (json) printJson({ ...report, entries: report.entries.filter((e) => e.status !== 'ok'), against });
        else {
          process.stdout.write(`${report.size} entries: ${report.counts.ok} ok, ${report.counts.erased} erased, ${report.counts.tampered} tampered\n`);
          for (const e of report.entries.filter((x) => x.status === 'tampered')) process.stdout.write(`  entry ${e.seq} (${e.op ?? '?'} ${e.key ?? '?'} v${e.version ?? '?'}): ${e.reasons.join(', ')}\n`);
          for (const p of report.problems) process.stdout.write(`  log: ${p}\n`);
          if (against) process.stdout.write(against.valid ? `  extends the checkpoint at size ${against.checkpointSize}\n` : `  checkpoint: ${against.reason}: ${against.message}\n`);
          process.stdout.write(ok ? 'ok\n' : 'TAMPERED\n');
        }
        return ok ? 0 : 1;
      }
      case 'checkpoint': {
        if (typeof keyFile !== 'string' || !origin) throw new UsageError('checkpoint needs --key KEYFILE and --origin ORIGIN');
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
