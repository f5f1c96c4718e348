// npm run eval:carriers
// The carrier catalogue (training/catalogue.mjs: 50 attacks, 50 benign passages)
// embedded in every carrier of training/carriers.mjs at the start, middle and end,
// scored by the shipped detector: how often the carried score stays within 0.1 of
// the bare passage's, how often a carrier lowers an attack or raises a benign
// passage, and how often the canonical attack families read as medium or higher.
import { init, IpiDetector, LEVELS } from '../dist/ipi.js';
import { CARRIERS, POSITIONS } from '../training/carriers.mjs';
import { ATTACKS, BENIGN, CANONICAL } from '../training/catalogue.mjs';

/** Per carrier: placements, within 0.1 two-sided, attacks lowered by > 0.1, benign raised by > 0.1, canonical ≥ medium. */
export function carrierTable(detector) {
  const rows = new Map(Object.keys(CARRIERS).map((k) => [k, { n: 0, within: 0, lowered: 0, raised: 0, canonical: 0, canonicalOk: 0 }]));
  const bare = { n: 0, canonical: 0, canonicalOk: 0 };
  for (const [set, passages] of [['attack', ATTACKS], ['benign', BENIGN]]) {
    for (const p of passages) {
      const alone = detector.inspect(p.text).score;
      const canonical = set === 'attack' && CANONICAL.includes(p.family);
      if (canonical) {
        bare.canonical++;
        if (alone >= LEVELS.medium) bare.canonicalOk++;
      }
      for (const [name, carry] of Object.entries(CARRIERS)) {
        for (const position of POSITIONS) {
          const score = detector.inspect(carry(p.text, position)).score;
          const row = rows.get(name);
          row.n++;
          if (Math.abs(score - alone) <= 0.1) row.within++;
          if (set === 'attack' && score < alone - 0.1) row.lowered++;
          if (set === 'benign' && score > alone + 0.1) row.raised++;
          if (canonical) {
            row.canonical++;
            if (score >= LEVELS.medium) row.canonicalOk++;
          }
        }
      }
    }
  }
  return { rows, bare };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await init();
  const { rows, bare } = carrierTable(new IpiDetector({ mode: 'warn', env: {} }));
  const pct = (a, b) => `${((100 * a) / b).toFixed(1)}%`;
  console.log('| carrier | placements | within 0.1 of bare | attacks lowered > 0.1 | benign raised > 0.1 | canonical ≥ medium |');
  console.log('|---|---:|---:|---:|---:|---:|');
  const total = { n: 0, within: 0, lowered: 0, raised: 0, canonical: 0, canonicalOk: 0 };
  for (const [name, r] of rows) {
    for (const k of Object.keys(total)) total[k] += r[k];
    console.log(`| ${name} | ${r.n} | ${pct(r.within, r.n)} | ${r.lowered} | ${r.raised} | ${pct(r.canonicalOk, r.canonical)} |`);
  }
  console.log(`| all carriers | ${total.n} | ${pct(total.within, total.n)} | ${total.lowered} | ${total.raised} | ${pct(total.canonicalOk, total.canonical)} |`);
  console.log(`| bare | ${ATTACKS.length + BENIGN.length} | — | — | — | ${pct(bare.canonicalOk, bare.canonical)} |`);
}
