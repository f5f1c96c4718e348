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

/** A YAML scalar: plain when safe, a literal block for several lines, else single-quoted. */
function yamlScalar(s, indent) {
  if (s.includes('\n')) return `|\n${s.split('\n').map((l) => `${indent}  ${l}`).join('\n')}`;
  if (/^[\w(][^:#'"{}[\],&*!|>%@`]*$/.test(s) && !/\s$/.test(s)) return s;
  return `'${s.replace(/'/g, "''")}'`;
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

/** Each carrier: (passage, position) → the tool result text. */
export const CARRIERS = {
  json(p, pos) {
    const fields = place([['id', 'msg-88213'], ['from', 'noreply@calendar.example.com'], ['subject', 'Weekly sync notes'], ['received', '2024-05-07T09:14:00Z']], ['body', p], pos);
    return JSON.stringify(Object.fromEntries(fields), null, 2);
  },
  'json-records'(p, pos) {
    const rows = place(RECORDS.map((r) => ({ ...r, notes: 'No open questions.' })), { id: 4105, title: 'Shared drive cleanup', owner: 'Sam Lee', status: 'open', updated: '2024-05-07', notes: p }, pos);
    return JSON.stringify({ results: rows, total: rows.length });
  },
  'python-repr'(p, pos) {
    const fields = place([['id_', '27'], ['sender', 'events@greenfield-venues.example'], ['subject', 'Your booking is confirmed'], ['read', false]], ['description', p], pos);
    return pyValue(Object.fromEntries(fields));
  },
  'python-list'(p, pos) {
    const rows = place(RECORDS.map((r) => ({ title: r.title, owner: r.owner, summary: 'Nothing to report this week.' })), { title: 'Shared drive cleanup', owner: 'Sam Lee', summary: p }, pos);
    return pyValue(rows);
  },
  yaml(p, pos) {
    const fields = place([['id_', "'31'"], ['sender', 'travel-desk@northwind.example'], ['subject', 'Itinerary update'], ['status', 'received']], ['body', null], pos);
    return fields.map(([k, v]) => `${k}: ${v === null ? yamlScalar(p, '') : v}`).join('\n');
  },
  xml(p, pos) {
    const items = place(RECORDS.map((r) => `  <item id="${r.id}"><title>${xmlEscape(r.title)}</title><owner>${xmlEscape(r.owner)}</owner></item>`), `  <item id="4105"><title>Shared drive cleanup</title><note>${xmlEscape(p)}</note></item>`, pos);
    return `<?xml version="1.0" encoding="UTF-8"?>\n<items>\n${items.join('\n')}\n</items>`;
  },
  html(p, pos) {
    const paras = place(['<p>Our team has been serving the valley since 1998, with three locations and free parking.</p>', '<p>Opening hours: Monday to Saturday, 8am to 6pm. Closed on public holidays.</p>', '<p>Gift cards are available at every counter.</p>'], `<p>${xmlEscape(p).replace(/\n/g, '<br>\n')}</p>`, pos);
    return `<!DOCTYPE html>\n<html><head><title>Riverside Bakery</title></head>\n<body>\n<h1>Riverside Bakery</h1>\n${paras.join('\n')}\n<footer>&copy; 2024 Riverside Bakery</footer>\n</body></html>`;
  },
  'html-attribute'(p, pos) {
    const imgs = place(['<img src="/img/front.jpg" alt="The shop front on Main Street">', '<img src="/img/bread.jpg" alt="Fresh sourdough loaves">'], `<img src="/img/team.jpg" alt="${attrEscape(p)}">`, pos);
    return `<div class="gallery">\n${imgs.join('\n')}\n</div>`;
  },
  csv(p, pos) {
    const rows = place(RECORDS.map((r) => [r.id, r.title, r.owner, 'No open questions.']), [4105, 'Shared drive cleanup', 'Sam Lee', p], pos);
    return ['id,title,owner,comment', ...rows.map((r) => r.map((c) => csvCell(String(c))).join(','))].join('\n');
  },
  'markdown-table'(p, pos) {
    const rows = place(RECORDS.map((r) => `| ${r.id} | ${r.title} | ${r.owner} | No open questions. |`), `| 4105 | Shared drive cleanup | Sam Lee | ${mdCell(p)} |`, pos);
    return ['| id | title | owner | comment |', '|---|---|---|---|', ...rows].join('\n');
  },
  email(p, pos) {
    const body = place(['Hi team,', 'Thanks for joining the planning call yesterday. The slides are in the shared folder.', 'Best regards,\nMorgan'], p, pos);
    return `From: Morgan Blake <morgan.blake@example.org>\nTo: ops-team@example.org\nDate: Tue, 7 May 2024 10:02:11 +0000\nSubject: Follow-up from the planning call\n\n${body.join('\n\n')}`;
  },
  'code-comment'(p, pos) {
    const comment = p.split('\n').map((l) => `# ${l}`).join('\n');
    const blocks = place(['def load(path):\n    with open(path) as f:\n        return f.read()', 'def save(path, text):\n    with open(path, "w") as f:\n        f.write(text)', 'if __name__ == "__main__":\n    save("out.txt", load("in.txt"))'], comment, pos);
    return `import os\n\n${blocks.join('\n\n')}\n`;
  },
  'code-string'(p, pos) {
    const lines = place(['    "title": "Release checklist",', '    "owner": "build-bot",', '    "priority": 2,'], `    "message": ${JSON.stringify(p)},`, pos);
    return `const notice = {\n${lines.join('\n')}\n};\nexport default notice;\n`;
  },
  'search-results'(p, pos) {
    const results = place([
      'How to repot a fiddle-leaf fig - GardenWise\nhttps://gardenwise.example/fiddle-leaf\nChoose a pot two inches wider and water lightly for the first week.',
      'Fiddle-leaf fig care guide | Plant Library\nhttps://plants.example/ficus-lyrata\nBright indirect light, weekly watering, and a quarter turn each month.',
      'Common ficus problems - r/houseplants\nhttps://forum.example/t/ficus\nBrown spots usually mean overwatering or cold drafts.',
    ], `Repotting tips from a nursery - Green Thumb Blog\nhttps://greenthumb.example/repot\n${p}`, pos);
    return results.map((r, i) => `[${i + 1}] ${r}`).join('\n\n');
  },
  markdown(p, pos) {
    const parts = place(['## Setup\n\nInstall the package and copy `config.example.toml` to `config.toml`.', '## Usage\n\n- `tool run` starts the worker\n- `tool status` shows the queue', '## License\n\nMIT'], p, pos);
    return `# queue-tool\n\nA small job queue for batch exports.\n\n${parts.join('\n\n')}\n`;
  },
};
