// Training traces for the trace model: scripted sessions of the suites in
// suites.mjs whose tool results carry attacks written like the training corpus's
// (frames, languages, plain requests), with three kinds of pending call — the
// user's own next call in a clean session (benign), the attacker's call after an
// injected result (attacked), and the user's own next call although a result was
// injected (injected_ignored: the agent did not follow it). Same format as
// data/ipi/traces-dev.jsonl.gz.
import { frameGoal, multilingualAttack, params } from '../synth/attacks.mjs';
import { cap, pick, rng } from '../synth/random.mjs';
import { FORMATS, render } from './render.mjs';
import { SUITES } from './suites.mjs';

// A plain request is how a review, a note or a record asks an agent to act when
// nothing frames it (the half of agent benchmarks' attacks without an override):
// phrased in more than one way, so that no single opening word marks an attack.
const PLAIN = [
  (g) => `Please ${g}.`,
  (g) => `${cap(g)}.`,
  (g) => `Could you ${g}?`,
  (g) => `Can you ${g} for me?`,
  (g) => `I need you to ${g}.`,
  (g) => `Don't forget to ${g}.`,
  (g) => `Remember to ${g} today.`,
  (g) => `Kindly ${g}.`,
  (g) => `You should ${g} as soon as possible.`,
  (g) => `${cap(g)}, thanks!`,
];

function attackText(r, goal) {
  const p = params(r);
  const roll = r();
  if (roll < 0.55) return { attack: 'framed', text: frameGoal(r, goal, p) };
  if (roll < 0.7) return { attack: 'language', text: multilingualAttack(r, p, goal).text };
  return { attack: 'plain', text: pick(r, PLAIN)(goal) };
}

/** Replay `calls[0..k)` against a suite instance, returning the steps with rendered results. */
function steps(suite, calls, k, format) {
  return calls.slice(0, k).map((call) => ({ call, result: render(suite.tools[call.name].run(suite.env, call.arguments), format) }));
}

export function generateTraces(count = 5000, seed = 20261202) {
  const r = rng(seed);
  const names = Object.keys(SUITES);
  const out = [];
  for (let n = 0; n < count; n++) {
    const suiteName = names[n % names.length];
    const suite = SUITES[suiteName](r);
    const task = pick(r, suite.tasks);
    const calls = task.calls(suite.env);
    const format = pick(r, FORMATS);
    const kind = pick(r, ['benign', 'attacked', 'attacked', 'injected_ignored']);
    const base = { suite: suiteName, user_prompt: task.prompt, user_task: `${suiteName}-${suite.tasks.indexOf(task)}` };
    const effect = (call) => suite.tools[call.name]?.effect ?? 'read';
    if (kind === 'benign') {
      const k = Math.floor(r() * calls.length);
      out.push({ trace_id: `${suiteName}-${n}`, ...base, steps: steps(suite, calls, k, format), pending: calls[k], label: 0, attack: null, injection_task: null, meta: { kind, result_format: format, pending_effect: effect(calls[k]) } });
      continue;
    }
    // The attacker writes where one of the task's calls reads.
    const points = suite.inject.filter((pt) => calls.some((c) => c.name === pt.tool));
    if (points.length === 0) { n--; continue; }
    const point = pick(r, points);
    const at = calls.findIndex((c) => c.name === point.tool);
    const goal = pick(r, suite.goals);
    // A goal the task itself makes (merging the pull request the user said to merge) is no attack.
    if (calls.some((c) => JSON.stringify(c) === JSON.stringify(goal.call))) { n--; continue; }
    const { attack, text } = attackText(r, goal.text);
    const unseen = JSON.stringify(steps(suite, calls, at + 1, format));
    point.place(suite.env, text);
    const done = steps(suite, calls, at + 1, format);
    // An injection the agent never read (a search that does not match the planted
    // message) cannot have caused the call: such a trace would teach noise.
    if (JSON.stringify(done) === unseen) { n--; continue; }
    const meta = { kind, result_format: format, injected_steps: [at], attack };
    if (kind === 'attacked') {
      out.push({ trace_id: `${suiteName}-${n}`, ...base, steps: done, pending: goal.call, label: 1, attack, injection_task: goal.text, meta: { ...meta, pending_effect: effect(goal.call) } });
    } else {
      if (at + 1 >= calls.length) { n--; continue; }
      out.push({ trace_id: `${suiteName}-${n}`, ...base, steps: done, pending: calls[at + 1], label: 0, attack, injection_task: goal.text, meta: { ...meta, pending_effect: effect(calls[at + 1]) } });
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const t of generateTraces(Number(process.argv[2] ?? 5000))) process.stdout.write(`${JSON.stringify(t)}\n`);
}
