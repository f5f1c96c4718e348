// Reads the detector's data files: JSON Lines, gzip-compressed when the name ends in .gz
// (data/ipi keeps them compressed in the repository).
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';

/** The rows of a .jsonl or .jsonl.gz file. */
export function readJsonl(path) {
  const bytes = readFileSync(path);
  const text = (path.endsWith('.gz') ? gunzipSync(bytes) : bytes).toString('utf8');
  return text.split('\n').filter((line) => line.trim() !== '').map((line, i) => {
    try {
      return JSON.parse(line);
    } catch (e) {
      throw new Error(`${path}:${i + 1}: not JSON (${e.message})`);
    }
  });
}

/** A file in data/ipi, the repository's copy of the detector's training and development data. */
export const dataFile = (name) => new URL(`../data/ipi/${name}`, import.meta.url).pathname;
