// How tool results carry text: one function per carrier, each embedding a passage
// at the start, middle or end of otherwise ordinary content, escaped the way that
// format escapes it. Used by the carrier-invariance test (test/ipi-carriers.test.ts)
// and by the training generator (training/synth-ipi.mjs), so that the model is
// taught on the same shapes it is tested on.

export const POSITIONS = ['start', 'middle', 'end'];

/** Python's repr() of a str: single quotes unless the text holds ' and no ". */
export function pyRepr(s) {
  const q = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = q;
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === q) out += `\\${q}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else out += ch;
  }
  return out + q;
}

const pyValue = (v) => (typeof v === 'string' ? pyRepr(v) : typeof v === 'number' ? String(v) : v === true ? 'True' : v === false ? 'False' : v === null ? 'None' : Array.isArray(v) ? `[${v.map(pyValue).join(', ')}]` : `{${Object.entries(v).map(([k, x]) => `${pyRepr(k)}: ${pyValue(x)}`).join(', ')}}`);

const xmlEscape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const attrEscape = (s) => xmlEscape(s).replace(/"/g, '&quot;');
const csvCell = (s) => (/[",\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s);
const mdCell = (s) => s.replace(/\|/g, '\\|').replace(/\n/g, '<br>');

/** Whether a one-line text can stand in YAML unquoted (no indicator, quote or trailing blank). */
const isPlainYaml = (s) => /^[\w(][^:#'"{}[\],&*!|>%@`]*$/.test(s) && !/\s$/.test(s);

/** A YAML scalar: plain when safe, a literal block for several lines, else single-quoted. */
function yamlScalar(s, indent) {
  if (s.includes('\n')) return `|\n${s.split('\n').map((l) => `${indent}  ${l}`).join('\n')}`;
  if (isPlainYaml(s)) return s;
  return `'${s.replace(/'/g, "''")}'`;
}

/**
 * A YAML flow scalar in a block list, as PyYAML's default dumper writes one (the
 * shape agents' YAML tool results take): plain when safe, else single-quoted, each
 * newline written as a blank line, continuation lines indented under the item, and
 * lines folded near 80 columns at a space (a folded break reads back as a space).
 */
function yamlFlowItem(s) {
  if (!s.includes('\n') && isPlainYaml(s)) return `- ${s}`;
  const fold = (line) => {
    const out = [];
    let rest = line;
    while (rest.length > 76) {
      const at = rest.lastIndexOf(' ', 76);
      if (at <= 0) break;
      out.push(rest.slice(0, at));
      rest = rest.slice(at + 1);
    }
    out.push(rest);
    return out.join('\n  ');
  };
  return `- '${s.replace(/'/g, "''").split('\n').map(fold).join('\n\n  ')}'`;
}

/** Insert `item` into `list` at the position. */
function place(list, item, position) {
  const out = list.slice();
  const at = position === 'start' ? 0 : position === 'end' ? out.length : Math.floor(out.length / 2);
  out.splice(at, 0, item);
  return out;
}

const RECORDS = [
  { id: 4102, title: 'Quarterly report', owner: 'Dana Whitfield', status: 'final', updated: '2024-05-02' },
  { id: 4103, title: 'Vendor onboarding checklist', owner: 'Luis Ortega', status: 'draft', updated: '2024-05-03' },
  { id: 4104, title: 'Office move timeline', owner: 'Priya Raman', status: 'review', updated: '2024-05-06' },
];

/**
 * Each carrier: (passage, position, filler?) → the tool result text. `filler`
 * (three short texts) replaces the carrier's own prose around the passage; the
 * tests use the defaults, the training generator its own.
 */
export const CARRIERS = {
  json(p, pos, f) {
    const fields = place([['id', 'msg-88213'], ['from', 'noreply@calendar.example.com'], ['subject', f?.[0] ?? 'Weekly sync notes'], ['received', '2024-05-07T09:14:00Z']], ['body', p], pos);
    return JSON.stringify(Object.fromEntries(fields), null, 2);
  },
  'json-records'(p, pos, f) {
    const rows = place(RECORDS.map((r, i) => ({ ...r, notes: f?.[i] ?? 'No open questions.' })), { id: 4105, title: 'Shared drive cleanup', owner: 'Sam Lee', status: 'open', updated: '2024-05-07', notes: p }, pos);
    return JSON.stringify({ results: rows, total: rows.length });
  },
  'python-repr'(p, pos, f) {
    const fields = place([['id_', '27'], ['sender', 'events@greenfield-venues.example'], ['subject', f?.[0] ?? 'Your booking is confirmed'], ['read', false]], ['description', p], pos);
    return pyValue(Object.fromEntries(fields));
  },
  'python-list'(p, pos, f) {
    const rows = place(RECORDS.map((r, i) => ({ title: r.title, owner: r.owner, summary: f?.[i] ?? 'Nothing to report this week.' })), { title: 'Shared drive cleanup', owner: 'Sam Lee', summary: p }, pos);
    return pyValue(rows);
  },
  yaml(p, pos, f) {
    const fields = place([['id_', "'31'"], ['sender', 'travel-desk@northwind.example'], ['subject', f ? yamlScalar(f[0], '') : 'Itinerary update'], ['status', 'received']], ['body', null], pos);
    return fields.map(([k, v]) => `${k}: ${v === null ? yamlScalar(p, '') : v}`).join('\n');
  },
  'yaml-list'(p, pos, f = ['general', 'random', 'Lunch is on the team today, see you at noon.']) {
    return place(f.map(yamlFlowItem), yamlFlowItem(p), pos).join('\n');
  },
  xml(p, pos, f) {
    const items = place(RECORDS.map((r, i) => `  <item id="${r.id}"><title>${xmlEscape(r.title)}</title><owner>${xmlEscape(r.owner)}</owner>${f ? `<note>${xmlEscape(f[i] ?? '')}</note>` : ''}</item>`), `  <item id="4105"><title>Shared drive cleanup</title><note>${xmlEscape(p)}</note></item>`, pos);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<items>\n${items.join('\n')}\n</items>`;
  },
  html(p, pos, f = ['Our team has been serving the valley since 1998, with three locations and free parking.', 'Opening hours: Monday to Saturday, 8am to 6pm. Closed on public holidays.', 'Gift cards are available at every counter.']) {
    const paras = place(f.map((t) => `<p>${xmlEscape(t)}</p>`), `<p>${xmlEscape(p).replace(/\n/g, '<br>\n')}</p>`, pos);
    return `<!DOCTYPE html>\n<html><head><title>Riverside Bakery</title></head>\n<body>\n<h1>Riverside Bakery</h1>\n${paras.join('\n')}\n<footer>&copy; 2024 Riverside Bakery</footer>\n</body></html>`;
  },
  'html-attribute'(p, pos, f) {
    // The training generator names the passage's image after its filler: one fixed
    // path beside every training passage had taken on weight of its own.
    const image = f ? f[0].toLowerCase().replace(/[^a-z]+/g, '-').replace(/^-|-$/g, '').slice(0, 24) || 'photo' : 'team';
    const imgs = place(['<img src="/img/front.jpg" alt="The shop front on Main Street">', '<img src="/img/bread.jpg" alt="Fresh sourdough loaves">'], `<img src="/img/${image}.jpg" alt="${attrEscape(p)}">`, pos);
    return `<div class="gallery">\n${imgs.join('\n')}\n</div>`;
  },
  csv(p, pos, f) {
    const rows = place(RECORDS.map((r, i) => [r.id, r.title, r.owner, f?.[i] ?? 'No open questions.']), [4105, 'Shared drive cleanup', 'Sam Lee', p], pos);
    return ['id,title,owner,comment', ...rows.map((r) => r.map((c) => csvCell(String(c))).join(','))].join('\n');
  },
  'markdown-table'(p, pos, f) {
    const rows = place(RECORDS.map((r, i) => `| ${r.id} | ${r.title} | ${r.owner} | ${mdCell(f?.[i] ?? 'No open questions.')} |`), `| 4105 | Shared drive cleanup | Sam Lee | ${mdCell(p)} |`, pos);
    return ['| id | title | owner | comment |', '|---|---|---|---|', ...rows].join('\n');
  },
  email(p, pos, f = ['Hi team,', 'Thanks for joining the planning call yesterday. The slides are in the shared folder.', 'Best regards,\nMorgan']) {
    const body = place(f, p, pos);
    return `From: Morgan Blake <morgan.blake@example.org>\nTo: ops-team@example.org\nDate: Tue, 7 May 2024 10:02:11 +0000\nSubject: Follow-up from the planning call\n\n${body.join('\n\n')}`;
  },
  'code-comment'(p, pos, f) {
    const comment = p.split('\n').map((l) => `# ${l}`).join('\n');
    const blocks = place(f ? f.map((t) => `# ${t.replace(/\n/g, ' ')}\nx = ${f.indexOf(t)}`) : ['def load(path):\n    with open(path) as f:\n        return f.read()', 'def save(path, text):\n    with open(path, "w") as f:\n        f.write(text)', 'if __name__ == "__main__":\n    save("out.txt", load("in.txt"))'], comment, pos);
    return `import os\n\n${blocks.join('\n\n')}\n`;
  },
  'code-string'(p, pos) {
    const lines = place(['    "title": "Release checklist",', '    "owner": "build-bot",', '    "priority": 2,'], `    "message": ${JSON.stringify(p)},`, pos);
    return `const notice = {\n${lines.join('\n')}\n};\nexport default notice;\n`;
  },
  'search-results'(p, pos, f = ['Choose a pot two inches wider and water lightly for the first week.', 'Bright indirect light, weekly watering, and a quarter turn each month.', 'Brown spots usually mean overwatering or cold drafts.']) {
    const titles = ['How to repot a fiddle-leaf fig - GardenWise\nhttps://gardenwise.example/fiddle-leaf', 'Fiddle-leaf fig care guide | Plant Library\nhttps://plants.example/ficus-lyrata', 'Common ficus problems - r/houseplants\nhttps://forum.example/t/ficus'];
    const results = place(f.map((t, i) => `${titles[i % titles.length]}\n${t}`), `Repotting tips from a nursery - Green Thumb Blog\nhttps://greenthumb.example/repot\n${p}`, pos);
    return results.map((r, i) => `[${i + 1}] ${r}`).join('\n\n');
  },
  markdown(p, pos, f = ['Install the package and copy `config.example.toml` to `config.toml`.', '- `tool run` starts the worker\n- `tool status` shows the queue', 'MIT']) {
    const parts = place(f.map((t, i) => `## ${['Setup', 'Usage', 'License'][i % 3]}\n\n${t}`), p, pos);
    return `# queue-tool\n\nA small job queue for batch exports.\n\n${parts.join('\n\n')}\n`;
  },
};
