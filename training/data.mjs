// The detector's real training texts: data/ipi (development set and the public
// corpus), each row with the sources it derives from. The generator's rows come from
// training/synth-ipi.mjs, one sample per seed (training/train-ipi.mjs).
import { dataFile, readJsonl } from '../scripts/jsonl.mjs';

/** Every source that is held out in turn (leave-one-source-out). */
export const SOURCES = ['agentdojo-slack', 'agentdojo-workspace', 'asb', 'bipia-train', 'garak', 'spikee', 'spikee+asb', 'debian-docs', 'notinject', 'peps', 'polyai', 'tldr', 'wildguard'];

/**
 * Rows `{ text, label, source, family, origins }`. `origins` lists every source a
 * row is built from, so that holding a source out also holds out what was made
 * from it: `spikee+asb` fills spikee's templates with ASB's instructions, and an
 * `embedded/<shape>-<carrier>/…` row puts an attack into a carrier text taken from
 * another source (tldr, peps, polyai, garak's whois records).
 */
export function loadTexts() {
  const rows = [];
  for (const r of readJsonl(dataFile('dev.jsonl.gz'))) rows.push({ text: r.text, label: r.label, source: r.source, family: r.family ?? '', origins: [r.source] });
  for (const r of readJsonl(dataFile('train-public.jsonl.gz'))) {
    const origins = new Set([r.source]);
    if (r.source === 'spikee+asb') {
      origins.add('spikee');
      origins.add('asb');
    }
    const carrier = /^embedded\/[a-z]+-([a-z+]+)\//.exec(r.family);
    if (carrier && carrier[1] !== 'asb') origins.add(carrier[1]);
    rows.push({ text: r.text, label: r.label, source: r.source, family: r.family, origins: [...origins] });
  }
  return rows;
}

/**
 * Sample weights: each (source, label) group gets a total weight proportional to
 * the square root of its size, and the two classes weigh the same. One large
 * family (13k template-heavy rows) must not set the boundary for the rest. The
 * generator's rows are grouped by family (canonical attacks, languages, plain
 * requests, …; bank records, code, trivia, …): each is a source of its own kind.
 */
export function weigh(rows) {
  const groupOf = (r) => `${r.source === 'synthetic' ? `synthetic/${r.family.split('/')[2]}` : r.source}|${r.label}`;
  const groups = new Map();
  for (const r of rows) groups.set(groupOf(r), (groups.get(groupOf(r)) ?? 0) + 1);
  let pos = 0;
  let neg = 0;
  for (const [k, n] of groups) {
    if (k.endsWith('|1')) pos += Math.sqrt(n);
    else neg += Math.sqrt(n);
  }
  return rows.map((r) => {
    const n = groups.get(groupOf(r));
    return ((Math.sqrt(n) / n) / (r.label ? pos : neg)) * (rows.length / 2);
  });
}
