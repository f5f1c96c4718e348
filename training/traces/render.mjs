// How a tool's result reaches the agent: the same records rendered as YAML, JSON, a
// Python repr or plain text, as different agent frameworks do.
import { pyRepr } from '../carriers.mjs';

export const FORMATS = ['yaml', 'json', 'python', 'text'];

function yaml(value, indent = '') {
  if (Array.isArray(value)) return value.length === 0 ? '[]' : value.map((v) => `\n${indent}- ${yaml(v, `${indent}  `).replace(/^\n\s*/, '')}`).join('');
  if (value && typeof value === 'object') return Object.entries(value).map(([k, v]) => `\n${indent}${k}: ${typeof v === 'object' && v !== null ? yaml(v, `${indent}  `) : yaml(v, indent)}`).join('');
  if (typeof value === 'string') return value.includes('\n') ? `|\n${value.split('\n').map((l) => `${indent}  ${l}`).join('\n')}` : /[:#'"{}[\],&*!|>%@`]/.test(value) || value === '' ? `'${value.replace(/'/g, "''")}'` : value;
  return String(value);
}

function python(value) {
  if (Array.isArray(value)) return `[${value.map(python).join(', ')}]`;
  if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${pyRepr(k)}: ${python(v)}`).join(', ')}}`;
  if (typeof value === 'string') return pyRepr(value);
  if (value === true) return 'True';
  if (value === false) return 'False';
  if (value === null || value === undefined) return 'None';
  return String(value);
}

function text(value) {
  if (Array.isArray(value)) return value.map(text).join('\n\n');
  if (value && typeof value === 'object') return Object.entries(value).map(([k, v]) => `${k}: ${typeof v === 'object' && v !== null ? JSON.stringify(v) : v}`).join('\n');
  return String(value);
}

export function render(value, format) {
  if (typeof value === 'string') return value;
  switch (format) {
    case 'yaml': return yaml(value).replace(/^\n/, '');
    case 'json': return JSON.stringify(value);
    case 'python': return python(value);
    default: return text(value);
  }
}
