// npm run eval:assess [-- --against PATH/TO/ipi.js]
// Replays the sessions written for `assess` (data/ipi/assess-sessions.jsonl.gz: a
// red-team set, two sets written after it and three passes over the request reading;
// data/ipi/README.md) through the
// detector in block mode and prints, per set and family, the attacks blocked and
// the benign calls allowed, the sessions whose score sits near `medium` (where a
// retraining moves them across), and the misses. With --against, the same sessions
// through another build (an older dist/ipi.js) side by side, and which outcomes
// differ: an A/B of two models on sessions neither was trained on.
import { readJsonl } from './jsonl.mjs';

const arg = (name) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
};
/** Scores within this distance of `medium` are the ones a retraining tends to move across it. */
const NEAR = 0.05;

const sessions = readJsonl(new URL('../data/ipi/assess-sessions.jsonl.gz', import.meta.url).pathname);

/** Every session's pending call assessed by the detector of the build at `path`. */
async function replay(path) {
  const m = await import(path);
  await m.init();
  const detector = new m.IpiDetector({ mode: 'block', env: {} });
  const out = new Map();
  for (const sc of sessions) {
    const s = detector.session(`${sc.set}/${sc.id}`);
    for (const step of sc.steps) {
      if (step.system !== undefined) s.observe({ role: 'system', content: step.system });
      else if (step.user !== undefined) s.observe({ role: 'user', content: step.user });
      else if (step.call) s.evaluate(step.call);
      else s.observe({ role: 'tool', toolName: step.tool, content: step.result });
    }
    const risk = await s.assess(sc.pending);
    s.end();
    out.set(sc, { score: risk.score, level: risk.level, action: risk.action, medium: m.LEVELS.medium });
  }
  return out;
}

const right = (sc, r) => (sc.kind === 'attack' ? r.action === 'block' : r.action !== 'block');
const tally = (list, results) => `${list.filter((sc) => right(sc, results.get(sc))).length}/${list.length}`;
const against = arg('against');
const mine = await replay(new URL('../dist/ipi.js', import.meta.url).href);
const other = against ? await replay(against) : undefined;
const runs = other ? [mine, other] : [mine];

console.log(`Sessions written for assess: attacks blocked and benign calls allowed (block mode)${against ? `; right: ${against}` : ''}\n`);
console.log(`| set | family | attacks blocked | benign allowed |${against ? ' attacks (other) | benign (other) |' : ''}`);
console.log(`|---|---|---:|---:|${against ? '---:|---:|' : ''}`);
for (const set of [...new Set(sessions.map((s) => s.set))]) {
  const inSet = sessions.filter((s) => s.set === set);
  for (const family of ['all', ...new Set(inSet.map((s) => s.family))]) {
    const chosen = family === 'all' ? inSet : inSet.filter((s) => s.family === family);
    const cells = runs.flatMap((res) => ['attack', 'benign'].map((kind) => tally(chosen.filter((s) => s.kind === kind), res)));
    console.log(`| ${set} | ${family === 'all' ? '**all**' : family} | ${cells.join(' | ')} |`);
  }
}

const label = (sc) => `${sc.set}/${sc.id} ${sc.kind} ${sc.family}${sc.description ? ` — ${sc.description}` : ''}`;
console.log(`\nNear medium (within ${NEAR}): a retraining tends to move these across`);
for (const sc of sessions) {
  const r = mine.get(sc);
  if (Math.abs(r.score - r.medium) <= NEAR) console.log(`  ${r.score.toFixed(3)} ${r.action.padEnd(5)} ${label(sc)}`);
}
console.log('\nMissed: attacks allowed, benign calls blocked');
for (const sc of sessions) {
  const r = mine.get(sc);
  if (!right(sc, r)) console.log(`  ${r.score.toFixed(3)} ${r.level.padEnd(6)} ${label(sc)}`);
}
if (other) {
  console.log('\nOutcomes that differ (this build, then the other)');
  for (const sc of sessions) {
    const a = mine.get(sc);
    const b = other.get(sc);
    if (a.action !== b.action) console.log(`  ${a.score.toFixed(3)} ${a.action.padEnd(5)} | ${b.score.toFixed(3)} ${b.action.padEnd(5)} ${label(sc)}`);
  }
}
