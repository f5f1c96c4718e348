// Memory-store benchmarks (issue: vmg): governance overhead on SQLite against
// a bare better-sqlite3 insert in the same run, canonical JSON + hash, puts/s,
// verify() entries/s and get-with-proof at 1M entries on the memory backend.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { init, VmgMemoryStore, MemoryBackend, canonicalJson, canonicalJsonBytes } from '../dist/vmg.js';
import { SqliteBackend } from '../dist/vmg-sqlite.js';
import { sha256, sha256Utf8, merkleLeafHashBatch } from '../dist/index.js';
import { hashLeaf } from '../dist/tlog.js';
import { runSuite, sized, stamp, writeSection } from './harness.mjs';

await init();
const dir = mkdtempSync(join(tmpdir(), 'parapet-bench-'));
const value1k = { text: 'x'.repeat(1000) };
const lines = [];

// 1. put latency on SQLite (WAL, synchronous=FULL) against a bare insert of the same bytes,
//    the rows a put writes replayed as bare SQL (what SQLite alone costs for them), and the bare
//    insert after the hashing that any governed put must do (the least a put can add to it).
{
  const bare = new Database(join(dir, 'bare.db'));
  bare.pragma('journal_mode = WAL');
  bare.pragma('synchronous = FULL');
  bare.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v BLOB NOT NULL) WITHOUT ROWID');
  const insert = bare.prepare('INSERT INTO t (k, v) VALUES (?, ?)');
  const bytes = canonicalJsonBytes(value1k);
  const store = await VmgMemoryStore.open({ backend: new SqliteBackend(join(dir, 'vmg.db')), agentId: 'bench', sessionId: 's' });
  const replay = replayOfPut(new SqliteBackend(join(dir, 'replay.db')).db, bytes);
  let i = 0;
  let j = 0;
  let r = 0;
  let h = 0;
  const entryStandIn = new Uint8Array(442).fill(0x61); // a put's entry is 440–450 bytes; hashing time depends on length only
  const rows = await runSuite('sqlite put', [
    { name: 'bare better-sqlite3 insert (1 KiB)', fn: () => insert.run(`k${i++}`, bytes) },
    { name: 'VmgMemoryStore.put on SqliteBackend (1 KiB)', defer: true, fn: () => store.put(`k${j++}`, value1k, { policyTag: 'persistent' }) },
    { name: "a put's rows as bare SQL, no other work (1 KiB)", fn: () => replay(`k${r++}`) },
    {
      name: 'bare insert after the hashing every put needs (1 KiB)',
      fn: () => {
        const canonical = canonicalJsonBytes(value1k);
        sha256(canonical);
        hashLeaf(entryStandIn);
        insert.run(`h${h++}`, canonical);
      },
    },
  ]);
  const [b, v, p, f] = rows;
  lines.push(
    `| put latency, SQLite WAL + synchronous=FULL, 1 KiB | ${v.meanUs.toFixed(1)} µs vs bare insert ${b.meanUs.toFixed(1)} µs = **${(v.meanUs / b.meanUs).toFixed(2)}×** ` +
      `(the put's rows as bare SQL: ${p.meanUs.toFixed(1)} µs = ${(p.meanUs / b.meanUs).toFixed(2)}×; the bare insert after only the hashing every put needs — ` +
      `value canonicalised and hashed, a 442-byte entry leaf-hashed: ${f.meanUs.toFixed(1)} µs = ${(f.meanUs / b.meanUs).toFixed(2)}×) | ≤ 1.05× |`,
  );
  await store.close();
  bare.close();
}

/**
 * The statements and rows of one put of a new key on SqliteBackend's layout
 * (src/vmg/sqlite.ts), with stand-in bytes of the same sizes, in one IMMEDIATE
 * transaction: the SQLite share of a put, without hashing, JSON or reads the
 * cache answers.
 */
function replayOfPut(db, value) {
  const entry = new Uint8Array(442).fill(0x61);
  const nodes = new Uint8Array(64).fill(1);
  const rec = JSON.stringify({ v: 1, seq: 0, policy: 'persistent', quarantined: false, erased: false });
  const q = {
    dataVersion: db.prepare('PRAGMA data_version').pluck(),
    totalChanges: db.prepare('SELECT total_changes()').pluck(),
    getRec: db.prepare('SELECT rec FROM kv WHERE name = ?').pluck(),
    putLog: db.prepare('INSERT INTO log (seq, entry, nodes) VALUES (?, ?, ?) ON CONFLICT (seq) DO UPDATE SET entry = coalesce(excluded.entry, entry), nodes = coalesce(excluded.nodes, nodes)'),
    putKv: db.prepare('INSERT INTO kv (name, value, rec) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value, rec = excluded.rec'),
    putRec: db.prepare('INSERT INTO kv (name, rec) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET rec = excluded.rec'),
  };
  let seq = 0;
  const tx = db.transaction((key) => {
    q.dataVersion.get();
    q.totalChanges.get();
    q.getRec.get(`k\u0000default\u0000${key}`);
    q.putLog.run(seq++, entry, nodes);
    q.putKv.run(`k\u0000default\u0000${key}\u00001`, value, rec);
    q.putRec.run(`k\u0000default\u0000${key}`, `{"latest":1,"forgotten":false,"hash":"${'b'.repeat(64)}","policy":"persistent"}`);
    q.putRec.run('m\u0000head', String(seq));
  });
  return (key) => tx.immediate(key);
}

// 2. canonicalise + hash of a 512-byte record.
{
  const record = { key: 'prefs/cuisine', value: { likes: ['italian', 'greek'], note: 'y'.repeat(316) }, provenance: { agent_id: 'a', session_id: 's', timestamp: 1700000000000, kind: 'user' }, policy_tag: 'persistent', version: 3 };
  const rows = await runSuite('canonical', [
    { name: 'canonicalJson + sha256Utf8', fn: () => sha256Utf8(canonicalJson(record)) },
    { name: 'canonicalJsonBytes + sha256 (an owned byte array as well)', fn: () => sha256(canonicalJsonBytes(record)) },
    { name: 'JSON.stringify + sha256Utf8 (not canonical, reference)', fn: () => sha256Utf8(JSON.stringify(record)) },
  ]);
  lines.push(
    `| canonicalise + hash, ${canonicalJsonBytes(record).length} B record | ${rows[0].meanUs.toFixed(2)} µs (with an owned byte array too: ${rows[1].meanUs.toFixed(2)} µs; ` +
      `JSON.stringify + hash: ${rows[2].meanUs.toFixed(2)} µs) | ≤ 5 µs |`,
  );
}

/** The log's entries as the backend holds them, read through its public transaction interface. */
function heldEntries(backend) {
  return backend.transaction((tx) => Array.from({ length: tx.entryCount() }, (_, seq) => tx.getEntry(seq)));
}

/** Entries/s of decoding, parsing and leaf-hashing `entries`, in verify's batches of 4096. */
function parseAndHashRate(entries) {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const t0 = performance.now();
  let seqs = 0;
  for (let start = 0; start < entries.length; start += 4096) {
    const batch = entries.slice(start, start + 4096);
    for (const bytes of batch) seqs += JSON.parse(decoder.decode(bytes)).seq;
    merkleLeafHashBatch(batch);
  }
  if (seqs !== (entries.length * (entries.length - 1)) / 2) throw new Error('entries are not the log');
  return entries.length / ((performance.now() - t0) / 1000);
}

// 3. MemoryBackend puts/s, verify entries/s, get with proof at 1M entries. Puts and
//    verify are timed whole, three times each (a fresh store per put run), and reported as
//    median and range: one timing moved ±15% between runs on this VM. Beside verify, the
//    least any verifier of this log must do per entry, timed alike: decode and parse the
//    entry, and hash it as a leaf (four at a time, as verify does).
{
  const N = Number(process.env.BENCH_VMG_ENTRIES ?? sized(1_000_000, 2_000));
  const RUNS = sized(3, 1);
  const small = { v: 'value of a modest memory entry' };
  const putRates = [];
  let store;
  let backend;
  for (let run = 0; run < RUNS; run++) {
    await store?.close();
    backend = new MemoryBackend();
    store = await VmgMemoryStore.open({ backend, agentId: 'bench', sessionId: 's' });
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await store.put(`key/${i % 50_000}`, small, { policyTag: 'persistent' });
    putRates.push(N / ((performance.now() - t0) / 1000));
  }
  lines.push(`| MemoryBackend puts (${N.toLocaleString('en')} puts over 50k keys; median of ${RUNS} runs, range) | ${spread(putRates)} puts/s | ≥ 100k/s |`);
  let k = 0;
  const rows = await runSuite('get@N', [{ name: 'get with proof', defer: true, fn: () => store.get(`key/${(k++ * 7919) % 50_000}`) }]);
  lines.push(`| get with inclusion proof at ${N.toLocaleString('en')} entries | ${rows[0].meanUs.toFixed(1)} µs | ≤ 50 µs |`);
  const verifyRates = [];
  const floorRates = [];
  const entries = await heldEntries(backend);
  let size = 0;
  for (let run = 0; run < RUNS; run++) {
    const t1 = performance.now();
    const report = await store.verify();
    verifyRates.push(report.size / ((performance.now() - t1) / 1000));
    if (!report.ok) throw new Error('verify failed on an untouched store');
    size = report.size;
    floorRates.push(parseAndHashRate(entries));
  }
  lines.push(
    `| verify() over ${size.toLocaleString('en')} entries (median of ${RUNS} runs, range) | ${spread(verifyRates)} entries/s ` +
      `(decoding, parsing and leaf-hashing the same entries alone, no checks: ${spread(floorRates)}/s) | ≥ 300k/s |`,
  );
}

/** Median, then the range, of rates: "74,120 (70,310–78,400)". */
function spread(rates) {
  const sorted = [...rates].sort((a, b) => a - b);
  const f = (x) => Math.round(x).toLocaleString('en');
  return `${f(sorted[sorted.length >> 1])} (${f(sorted[0])}–${f(sorted[sorted.length - 1])})`;
}

const md = [`_${stamp()}_`, '', '| what | measured | target |', '|---|---|---|', ...lines].join('\n');
console.log(md);
writeSection('vmg', `## Memory store\n\n${md}`);
