// Synthetic training data for the injection classifier, generated deterministically
// (seeded): attacks of every family in training/synth/attacks.mjs, bare or
// embedded in the carriers tool results come in (training/carriers.mjs), and the
// hard negatives of training/synth/benign.mjs in the same shapes. Nothing here is
// derived from the data in data/ipi, so leave-one-source-out keeps it in every fold.
//
//   node training/synth-ipi.mjs [COUNT] > synth.jsonl   (training imports generate())
import { CARRIERS, POSITIONS } from './carriers.mjs';
import { canonicalAttack, framedAttack, multilingualAttack, OBFUSCATIONS, outputHijack, params, plainRequest, renderedExfil, replyHijack, rolePlay, toolPoisoning } from './synth/attacks.mjs';
import { errandToTheAi } from './synth/errands-to-ai.mjs';
import { benignText } from './synth/benign.mjs';
import { pick, rng } from './synth/random.mjs';

const CARRIER_NAMES = Object.keys(CARRIERS);
const OBFUSCATION_NAMES = Object.keys(OBFUSCATIONS);

/** Filler for a carrier: benign texts of the generator's own, short ones. */
function filler(r) {
  return [0, 1, 2].map(() => benignText(r).text.split('\n').slice(0, 3).join('\n').slice(0, 240));
}

/** `text` bare, or inside a carrier at a random position. */
function embed(r, text, { bare }) {
  if (r() < bare) return { text, shape: 'bare' };
  const name = pick(r, CARRIER_NAMES);
  return { text: CARRIERS[name](text, pick(r, POSITIONS), filler(r)), shape: name };
}

function attack(r) {
  const p = params(r);
  const roll = r();
  if (roll < 0.18) {
    const c = canonicalAttack(r, p);
    return { family: `canonical/${c.family}`, text: c.text, bare: 0.5 };
  }
  if (roll < 0.31) return { family: 'framed', text: framedAttack(r, p), bare: 0.35 };
  if (roll < 0.44) {
    const { text, lang } = multilingualAttack(r, p);
    return { family: `language/${lang}`, text, bare: 0.35 };
  }
  if (roll < 0.58) return { family: 'plain-request', text: plainRequest(r, p), bare: 0 };
  if (roll < 0.68) return { family: 'role-play', text: rolePlay(r, p), bare: 0.6 };
  if (roll < 0.74) return { family: 'rendered-exfil', text: renderedExfil(r, p), bare: 0.35 };
  if (roll < 0.79) return { family: 'tool-poisoning', text: toolPoisoning(r, p), bare: 0.35 };
  if (roll < 0.89) return { family: 'reply-hijack', text: replyHijack(r), bare: 0 };
  if (roll < 0.93) return { family: 'output-hijack', text: outputHijack(r), bare: 0.5 };
  return { family: 'addressed-errand', text: errandToTheAi(r), bare: 0.35 };
}

/** `count` rows `{ text, label, source: 'synthetic', family, origins }`, half attacks, half benign. */
export function generate(count = 12000, seed = 20261201) {
  const r = rng(seed);
  const out = [];
  for (let i = 0; i < count; i++) {
    if (i % 2 === 0) {
      const a = attack(r);
      const obfuscation = r() < 0.3 ? pick(r, OBFUSCATION_NAMES) : 'none';
      const { text, shape } = embed(r, OBFUSCATIONS[obfuscation](a.text, r), { bare: a.bare });
      out.push({ text, label: 1, source: 'synthetic', family: `synthetic/attack/${a.family}/${shape}/${obfuscation}`, origins: ['synthetic'] });
    } else {
      const b = benignText(r);
      const { text, shape } = embed(r, b.text, { bare: 0.4 });
      out.push({ text, label: 0, source: 'synthetic', family: `synthetic/benign/${b.kind}/${shape}`, origins: ['synthetic'] });
    }
  }
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  for (const row of generate(Number(process.argv[2] ?? 8000))) process.stdout.write(`${JSON.stringify(row)}\n`);
}
