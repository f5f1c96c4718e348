// npm run eval:traces [-- FILE.jsonl[.gz]]   (format: data/ipi/README.md)
// Without a file: the trace model's leave-one-suite-out tables, from the held-out
// scores `npm run train:traces` saved (training/results/ipi-trace-oof.json). With a
// file: each trace replayed through the shipped detector — the user prompt as
// trusted text, earlier calls assessed and their results observed — and its
// pending call scored. Per suite: AUROC, recall at 2% FPR, calls flagged (medium
// or higher, where block acts) among attacker calls, benign calls and benign calls
// made although an injection was present; then a reliability diagram. With
// --tasks (held-out scores only): attacker calls flagged per injection task, by how
// the injection was written (plain, framed, in another language, AgentDojo's own).
import { readFileSync } from 'node:fs';
import { calibrate, init, IpiDetector } from '../dist/ipi.js';
import { auroc, tprAtFpr } from './metrics.mjs';
import { readJsonl } from './jsonl.mjs';
import { email, PEOPLE } from '../training/traces/cast.mjs';

await init();
const fmt = (x) => (Number.isNaN(x) ? '—' : x.toFixed(3));
const args = process.argv.slice(2);
const byTask = args.includes('--tasks');
const file = args.find((a) => !a.startsWith('--'));
if (byTask && file) throw new Error('--tasks reads the held-out scores of npm run train:traces; it takes no trace file');
let results;
if (file) {
  const detector = new IpiDetector({ mode: 'block', env: {} });
  results = readJsonl(file).map((t) => {
    const s = detector.session(t.trace_id);
    s.observe({ role: 'user', content: t.user_prompt });
    for (const step of t.steps) {
      s.evaluate(step.call);
      s.observe({ role: 'tool', toolName: step.call.name, content: typeof step.result === 'string' ? step.result : JSON.stringify(step.result) });
    }
    const risk = s.evaluate(t.pending);
    s.end();
    return { suite: t.suite, kind: t.meta?.kind ?? (t.label ? 'attacked' : 'benign'), label: t.label, score: risk.score, rank: risk.score, flagged: risk.flagged, latency: risk.latencyMs };
  });
} else {
  const model = JSON.parse(readFileSync(new URL('../models/ipi-trace.json', import.meta.url), 'utf8'));
  const oof = JSON.parse(readFileSync(new URL('../training/results/ipi-trace-oof.json', import.meta.url), 'utf8'));
  // Ranked and flagged by the logit, as training reports them (the score clamps at 0 and 1).
  results = oof.map(([suite, kind, label, logit, task, attack]) => ({ suite, kind, label, task, attack, score: calibrate(logit, model.anchors), rank: logit, flagged: logit >= model.anchors.medium }));
  console.log('Leave-one-suite-out: every trace scored by the model trained without its suite (npm run train:traces).\n');
}
console.log('| suite | traces | attacker calls | AUROC | recall @ 2% FPR | flagged: attacker calls | benign calls | injection present but ignored |');
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
const share = (xs) => (xs.length ? xs.filter((r) => r.flagged).length / xs.length : NaN);
for (const suite of [...[...new Set(results.map((r) => r.suite))].sort(), 'all']) {
  const set = suite === 'all' ? results : results.filter((r) => r.suite === suite);
  const s = set.map((r) => r.rank);
  const l = set.map((r) => r.label);
  console.log(`| ${suite} | ${set.length} | ${l.filter((x) => x === 1).length} | ${fmt(auroc(s, l))} | ${fmt(tprAtFpr(s, l, 0.02))} | ${fmt(share(set.filter((r) => r.label === 1)))} | ${fmt(share(set.filter((r) => r.label === 0)))} | ${fmt(share(set.filter((r) => r.kind === 'injected_ignored')))} |`);
}
console.log('\nReliability: calls per score bin and the share of attacker calls among them');
for (let b = 0; b < 10; b++) {
  const bin = results.filter((r) => Math.min(9, Math.floor(r.score * 10)) === b);
  const p = bin.length ? bin.filter((r) => r.label === 1).length / bin.length : NaN;
  console.log(`${(b / 10).toFixed(1)}–${((b + 1) / 10).toFixed(1)} ${String(bin.length).padStart(6)}  ${fmt(p).padStart(5)}  ${Number.isNaN(p) ? '' : '█'.repeat(Math.round(p * 30))}`);
}
if (file) {
  const lat = results.map((r) => r.latency).sort((a, b) => a - b);
  console.log(`assess latency: p50 ${(lat[Math.floor(lat.length / 2)] * 1000).toFixed(0)} µs, p99 ${(lat[Math.floor(lat.length * 0.99)] * 1000).toFixed(0)} µs`);
}
if (byTask) {
  // One row per suite and injection task: what the task asks, and its attacker calls
  // flagged (medium or higher) over all, then by how the injection was written.
  const styles = ['plain', 'framed', 'language', 'agentdojo'];
  const styleOf = (r) => (styles.includes(r.attack) ? r.attack : 'agentdojo');
  const attacks = results.filter((r) => r.label === 1);
  if (attacks.some((r) => r.task === undefined)) throw new Error('training/results/ipi-trace-oof.json has no injection tasks: rerun npm run train:traces');
  console.log('\nAttacker calls flagged (medium or higher) per injection task, by how the injection was written\n');
  console.log(`| suite | injection task | ${styles.join(' | ')} | all |`);
  console.log(`|---|---|${styles.map(() => '---:|').join('')}---:|`);
  const count = (xs) => (xs.length ? `${xs.filter((r) => r.flagged).length}/${xs.length}` : '');
  // The scripted suites draw their people and numbers per session: one row per task's shape.
  const escape = (x) => x.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const person = new RegExp(PEOPLE.flatMap((n) => [email(n), n, n.split(' ')[0]]).map(escape).join('|'), 'g');
  const shape = (task) => (/^injection_task_\d+$/.test(task) ? task : String(task).replace(person, '<person>').replace(/\b\d+\b/g, 'N'));
  // Grouped in one pass: each task's shape is computed once.
  const groups = new Map();
  for (const r of attacks) {
    const key = `${r.suite}\u0000${shape(r.task)}`;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(r);
  }
  for (const [key, set] of [...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const [suite, task] = key.split('\u0000');
    console.log(`| ${suite} | ${task.length > 80 ? `${task.slice(0, 79)}…` : task} | ${styles.map((st) => count(set.filter((r) => styleOf(r) === st))).join(' | ')} | ${count(set)} |`);
  }
}
