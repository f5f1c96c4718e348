// Every file in examples/ runs as written against the built package (`node
// examples/x.mjs`, importing `parapet` by name as an application would), and
// prints what the library computed; each is checked against an independent
// reference (node:crypto, a naive RFC 6962) or the outcome it demonstrates.
import { spawnSync } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runWorker } from './helpers/workerd.js';

const root = new URL('..', import.meta.url).pathname;
const example = (name: string): Map<string, string> => {
  const r = spawnSync(process.execPath, [join(root, 'examples', name)], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, PARAPET_IPI_MODE: '' } });
  expect(r.stderr, name).toBe('');
  expect(r.status, `${name}\n${r.stdout}`).toBe(0);
  // "label: value" lines, keyed by label.
  const lines = new Map<string, string>();
  for (const line of r.stdout.trim().split('\n')) {
    const colon = line.indexOf(': ');
    expect(colon, line).toBeGreaterThan(0);
    lines.set(line.slice(0, colon), line.slice(colon + 2));
  }
  return lines;
};
const sha256 = (...parts: (Buffer | Uint8Array | number[])[]) => createHash('sha256').update(Buffer.concat(parts.map((p) => Buffer.from(p as Uint8Array)))).digest();
/** RFC 6962 §2.1, written out. */
const mth = (leaves: Buffer[]): Buffer => {
  if (leaves.length === 1) return sha256([0], leaves[0]!);
  let k = 1;
  while (k * 2 < leaves.length) k *= 2;
  return sha256([1], mth(leaves.slice(0, k)), mth(leaves.slice(k)));
};

describe('examples/', () => {
  it('holds only examples this file runs', () => {
    expect(readdirSync(join(root, 'examples')).sort()).toEqual(['core.mjs', 'injection-detection.mjs', 'memory-store.mjs', 'skills.mjs', 'transparency-log.mjs', 'workerd']);
    expect(readdirSync(join(root, 'examples', 'workerd'))).toEqual(['worker.mjs']);
  });

  it('core.mjs', () => {
    const out = example('core.mjs');
    const abc = Buffer.from('abc');
    const hex = (b: Buffer) => b.toString('hex');
    expect(out.get('sha256("abc")')).toBe(hex(sha256(abc)));
    expect(out.get('streaming, any split')).toBe(hex(sha256(abc)));
    expect(out.get('sha256Utf8("abc")')).toBe(hex(sha256(abc)));
    expect(out.get('batch of 2')).toBe(`${hex(sha256(abc))} ${hex(sha256(Buffer.alloc(0)))}`);
    const link1 = sha256(Buffer.alloc(32), abc);
    expect(out.get('hash chain, last link')).toBe(hex(sha256(link1, abc)));
    const leaf = sha256([0], abc);
    expect(out.get('RFC 6962 leaf')).toBe(hex(leaf));
    expect(out.get('RFC 6962 node')).toBe(hex(sha256([1], leaf, leaf)));
    expect(out.get('hmac-sha256("key", "abc")')).toBe(createHmac('sha256', 'key').update(abc).digest('hex'));
    expect(out.get('entropy of 0..255, bits per byte')).toBe('8');
    expect(out.get('running mean of 1..4')).toBe('2.5');
    expect(out.get('normalizeText("ｉｇｎｏｒｅ\\u200b")')).toBe('"ignore"');
  });

  it('transparency-log.mjs', () => {
    const out = example('transparency-log.mjs');
    const root5 = mth(['a', 'b', 'c', 'd', 'e'].map((s) => Buffer.from(s))).toString('base64');
    expect(out.get('size')).toBe(`5 root ${root5}`);
    expect(out.get('inclusion of leaf 2')).toBe('true');
    expect(out.get("leaf 3 with leaf 2's proof")).toBe('false root-mismatch');
    expect(out.get('size 3 is a prefix of size 5')).toBe('true');
    expect(out.get('checkpoint opens')).toBe('true size 5');
    expect(out.get('for another origin')).toBe('origin-mismatch');
    expect(out.get('witness takes size 3')).toBe('true');
    expect(out.get('then size 5 with a consistency proof')).toBe('true');
    expect(out.get('then size 3 again')).toBe('rollback');
  });

  it('memory-store.mjs (SQLite)', () => {
    const out = example('memory-store.mjs');
    expect(out.get('get')).toBe('{"likes":"greek"} v2');
    expect(out.get('v1 writeHash (SHA-256 of its canonical JSON)')).toBe(sha256(Buffer.from('{"likes":"italian"}')).toString('hex'));
    expect(out.get('v2 parentHash is v1 writeHash')).toBe('true');
    expect(out.get('inclusion proof verifies')).toBe('true');
    expect(out.get('a tool result the guard flags is quarantined')).toBe('true - get serves it: false');
    expect(out.get('rollback')).toBe('v3 carries {"likes":"italian"}');
    expect(out.get('history')).toBe('v1={"likes":"italian"} v2={"likes":"greek"} v3={"likes":"italian"}');
    expect(out.get('verify')).toMatch(/^true \d+ ok, 1 erased, 0 tampered$/);
    expect(out.get('extends the checkpoint')).toBe('true at size 4');
  });

  it('injection-detection.mjs', () => {
    const out = example('injection-detection.mjs');
    expect(out.get('inspect(benign)')).toMatch(/^(none|low)$/);
    expect(out.get('inspect(injected)')).toMatch(/^(medium|high)$/);
    expect(out.get('send_email to alice')).toBe('allow');
    expect(out.get('send_email to the address in the injected email')).toBe('block');
    expect(out.get('hook vetoes it')).toBe('true');
    expect(out.get('guarded call to alice')).toBe('sent to alice@example.com');
    expect(out.get('guarded call to the attacker')).toBe('IpiBlockedError');
  });

  it('skills.mjs', () => {
    const out = example('skills.mjs');
    expect(out.get('unsigned')).toBe('unsigned');
    expect(out.get('signed')).toBe('verified weather 1.2.0 by acme');
    expect(out.get('a changed script')).toBe('digest-mismatch scripts/get.sh');
    expect(out.get('signed by a key the root does not pin')).toBe('untrusted-key');
    expect(out.get('ratchet holds')).toBe('{"weather":"1.2.0"}');
  });

  it('workerd/worker.mjs, bundled and served by workerd', async () => {
    const { body, logs } = await runWorker(join(root, 'examples', 'workerd', 'worker.mjs'), join(root, 'test-results', 'example-workerd'));
    expect(body, logs).toBe(`sha256("abc") ${sha256(Buffer.from('abc')).toString('hex')}\ncheckpoint opens: true\n`);
  }, 120_000);
});
