/**
 * How the detector cuts a text into windows: an instruction planted in a long
 * table or email is a few lines among many, and in one bag of features over
 * the whole text it drowns. A text scores the highest of its windows and of
 * the whole. Lines are packed into windows of at most `max` characters; a
 * longer line is split at sentence ends. (models/train-ipi.mjs evaluates with
 * this same function.)
 */
export const MAX_WINDOW = 320;

export function windows(text: string, max = MAX_WINDOW): string[] {
  const pieces: string[] = [];
  for (const line of text.split(/\n+/)) {
    if (line.length <= max) pieces.push(line);
    else pieces.push(...line.split(/(?<=[.!?;:])\s+/));
  }
  const out: string[] = [];
  let cur = '';
  for (const p of pieces) {
    if (p.trim() === '') continue;
    if (cur && cur.length + p.length + 1 > max) {
      out.push(cur);
      cur = '';
    }
    cur = cur ? `${cur}\n${p}` : p;
    while (cur.length > max * 2) {
      out.push(cur.slice(0, max));
      cur = cur.slice(max);
    }
  }
  if (cur) out.push(cur);
  return out;
}
