import { toBase64 } from '../index.js';
import { formatCheckpoint } from '../tlog/index.js';
import { VmgMemoryStore } from '../vmg/index.js';
import { parseArgs, parseUserValue, requireTogether, stringFlag, UsageError, type ArgSpec } from './args.js';
import { printJson, readText } from './io.js';
import { originOf, signerKeyArg, verifierKeyArg } from './key-args.js';
import { openSqlite } from './sqlite.js';

export const MEMORY_USAGE = `parapet memory <command> --db FILE ...
  history KEY [--namespace NS] [--json]                  every version of KEY
  get KEY [--namespace NS] [--as-of V] [--include-quarantined] [--json]
  verify [--checkpoint NOTE --verifier KEY [--origin O]] [--json]  walk the log; exit 1 if tampered
  checkpoint --key KEYFILE [--origin O]                  sign the current tree head
FILE must be an existing store (better-sqlite3 must be installed). The origin of a
checkpoint defaults to the key's name (what \`parapet log keygen NAME\` names it).`;

/** What each subcommand takes; anything else is a usage error. */
const SPECS: Record<string, ArgSpec> = {
  history: { valued: ['db', 'namespace'], boolean: ['json'], maxPositionals: 1 },
  get: { valued: ['db', 'namespace', 'as-of'], boolean: ['include-quarantined', 'json'], maxPositionals: 1 },
  verify: { valued: ['db', 'checkpoint', 'verifier', 'origin'], boolean: ['json'] },
  checkpoint: { valued: ['db', 'key', 'origin'] },
};

// The store's own bounds, checked here so that the message names what the user typed.
const MAX_KEY = 1024;
const MAX_NAMESPACE = 256;

export async function memoryCommand(argv: readonly string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === undefined || !Object.hasOwn(SPECS, sub)) throw new UsageError(sub ? `unknown memory command '${sub}'` : 'memory needs a command');
  const args = parseArgs(rest, `memory ${sub}`, SPECS[sub]);
  const { positionals, flags } = args;
  const db = stringFlag(args, 'db');
  if (db === undefined) throw new UsageError('--db FILE is required');
  const json = flags.has('json');
  const ns = stringFlag(args, 'namespace');
  if (ns !== undefined && ns.length > MAX_NAMESPACE) throw new UsageError(`--namespace must be at most ${MAX_NAMESPACE} characters`);
  const key = positionals[0];
  if ((sub === 'history' || sub === 'get') && !key) throw new UsageError(`${sub} needs a KEY`);
  if (key !== undefined && key.length > MAX_KEY) throw new UsageError(`KEY must be at most ${MAX_KEY} characters`);
  const asOfText = stringFlag(args, 'as-of');
  if (asOfText !== undefined && !(/^[1-9][0-9]*$/.test(asOfText) && Number.isSafeInteger(Number(asOfText)))) {
    throw new UsageError('--as-of needs a version number (1 or more)');
  }
  // A checkpoint is only checked with the key that signed it: one flag alone
  // used to be ignored and the walk reported "ok".
  if (sub === 'verify') {
    requireTogether(args, ['checkpoint', 'verifier']);
    if (flags.has('origin') && !flags.has('checkpoint')) throw new UsageError('--origin needs --checkpoint and --verifier');
  }
  if (sub === 'checkpoint' && !flags.has('key')) throw new UsageError('checkpoint needs --key KEYFILE');
  const checkpointFile = stringFlag(args, 'checkpoint');
  const verifierText = stringFlag(args, 'verifier');
  const verifier = verifierText === undefined ? undefined : verifierKeyArg('--verifier', verifierText);
  const keyFile = stringFlag(args, 'key');
  const signer = keyFile === undefined ? undefined : signerKeyArg('--key', keyFile);
  const keyed = signer ?? verifier;
  const origin = keyed ? originOf(stringFlag(args, 'origin'), keyed) : undefined;
  if (origin !== undefined) parseUserValue('--origin', 'must be a non-empty single line', () => formatCheckpoint({ origin, size: 0, root: new Uint8Array(32), extensions: [] }));
  const checkpointText = checkpointFile === undefined ? undefined : readText(checkpointFile, `--checkpoint ${checkpointFile}`);
  const store = await VmgMemoryStore.open({
    // An existing store only: a mistyped path must not read as an empty, valid
    // store, and a file that is not one is left exactly as it was.
    backend: await openSqlite(`memory ${sub}`, db, { create: false }),
    agentId: 'parapet-cli',
    sessionId: `cli-${process.pid}`,
    ...(signer ? { signer } : {}),
    ...(origin !== undefined ? { origin } : {}),
  });
  try {
    switch (sub) {
      case 'history': {
        const items = await store.history(key!, { namespace: ns });
        if (json) printJson(items);
        else for (const r of items) process.stdout.write(`v${r.version} ${r.policyTag.padEnd(10)} ${r.erased ? '(erased)' : JSON.stringify(r.value)}  by ${r.provenance.agentId}/${r.provenance.sessionId} ${new Date(r.provenance.timestamp).toISOString()}${r.quarantined ? ' [quarantined]' : ''}\n`);
        return 0;
      }
      case 'get': {
        const got = await store.get(key!, { namespace: ns, includeQuarantined: flags.has('include-quarantined'), ...(asOfText !== undefined ? { version: Number(asOfText) } : {}) });
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
        const against = checkpointText !== undefined && verifier !== undefined ? await store.verifyAgainst(checkpointText, verifier.text) : undefined;
        // A checkpoint that does not open with the key given says nothing about
        // the store: it is refused as such, not reported as tampering the walk did not find.
        const unopened = against !== undefined && !against.ok && against.code === 'checkpoint-invalid';
        const tampered = !report.ok || (against !== undefined && !against.ok && !unopened);
        const ok = !tampered && !unopened;
        if (json) printJson({ ...report, entries: report.entries.filter((e) => e.status !== 'ok'), against });
        else {
          process.stdout.write(`${report.size} entries: ${report.counts.ok} ok, ${report.counts.erased} erased, ${report.counts.tampered} tampered\n`);
          for (const e of report.entries.filter((x) => x.status === 'tampered')) process.stdout.write(`  entry ${e.seq} (${e.op ?? '?'} ${e.key ?? '?'} v${e.version ?? '?'}): ${e.reasons.join(', ')}\n`);
          for (const p of report.problems) process.stdout.write(`  log: ${p.code}: ${p.message}\n`);
          if (against?.ok) process.stdout.write(`  extends the checkpoint at size ${against.checkpointSize}\n`);
          else if (unopened) process.stdout.write(`  --checkpoint ${checkpointFile} does not open with --verifier ${verifierText} for origin ${origin}: ${against.message}\n`);
          else if (against) process.stdout.write(`  checkpoint: ${against.code}: ${against.message}\n`);
          process.stdout.write(tampered ? 'TAMPERED\n' : unopened ? 'checkpoint refused\n' : 'ok\n');
        }
        return ok ? 0 : 1;
      }
      case 'checkpoint': {
        process.stdout.write(await store.checkpoint());
        return 0;
      }
      default:
        throw new UsageError(`unknown memory command '${sub}'`);
    }
  } finally {
    await store.close();
  }
}
