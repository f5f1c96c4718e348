// Addresses, account numbers and links for both generators, drawn from one pool.
// When attacks and benign text draw them from separate lists the model learns the
// lists (an IBAN seen only in attacks reads as an attack wherever it appears, a
// bill from a real supplier included); drawn from one pool they say nothing about
// the label, and the model has to read the words around them.
import { int, pick } from './random.mjs';

const COUNTRIES = [['DE', 18], ['GB', 18], ['CH', 17], ['FR', 23], ['NL', 14], ['ES', 20], ['IT', 23], ['AT', 16], ['LT', 16], ['BE', 12]];
const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** An IBAN-shaped account number (check digits not computed), grouped by four or not. */
export function iban(r) {
  const [cc, len] = pick(r, COUNTRIES);
  let body = '';
  for (let i = 0; i < len; i++) body += i >= 0 && i < 4 && (cc === 'GB' || cc === 'NL') ? LETTERS[int(r, 0, 25)] : String(int(r, 0, 9));
  const raw = `${cc}${String(int(r, 10, 99))}${body}`;
  return r() < 0.7 ? raw.replace(/(.{4})(?!$)/g, '$1 ') : raw;
}

const LOCALS = ['billing', 'support', 'hr', 'feedback', 'team', 'info', 'accounts', 'archive', 'backup', 'admin', 'security', 'finance', 'reviews', 'bookings', 'office', 'j.doe', 'm.black', 'anna.k', 'ops', 'it-desk'];
const DOMAINS = ['company.example', 'northwind.example', 'stadtwerke.example', 'example.org', 'shop.example.com', 'hotel-alpina.example', 'mail-archive.example', 'secure-docs.net', 'data-sync.cloud', 'fastmail.test', 'gmail.test', 'outlook.test', 'backup-center.org', 'greenfield.example', 'acme-corp.test'];
const HOSTS = ['docs.company.example', 'portal.northwind.example', 'secure-login.example.net', 'files-share.test', 'status.example.org', 'cdn-static.example', 'bit.ly', 'update-center.info', 'help.shop.example.com', 'paste.example.net'];
const PATHS = ['verify', 'login', 'u/8812', 'invoice/2211', 'upload', 'p.png', 'status', 'help/returns', 'x', 'doc/5531'];

// The words around an account number and an amount come from one pool too: when
// bills wrote "to IBAN …" and attacks "to the account …", the word IBAN and the
// amounts' format carried the label ("transfer 2,500 USD to IBAN …" read benign).
const ACCOUNT_REFS = ['IBAN {i}', 'IBAN: {i}', '{i}', 'the account {i}', 'account {i}', 'account number {i}', 'the IBAN {i}', 'bank account {i}'];
/** An account number with the words that name it, as bills and attacks both write them. */
export const accountRef = (r, number = iban(r)) => pick(r, ACCOUNT_REFS).replace('{i}', number);

/** An amount of money, in one of the formats both bills and attacks use. */
export function amount(r) {
  const units = int(r, 1, 9900);
  const cents = String(int(r, 0, 99)).padStart(2, '0');
  const grouped = units >= 1000 ? `${Math.floor(units / 1000)},${String(units % 1000).padStart(3, '0')}` : String(units);
  const number = r() < 0.5 ? grouped : `${units}.${cents}`;
  return pick(r, [`$${number}`, `${number} USD`, `${number} EUR`, `EUR ${number}`, `€${number}`, `${number} GBP`, `£${number}`, number]);
}

export const email = (r) => `${pick(r, LOCALS)}@${pick(r, DOMAINS)}`;
export const host = (r) => pick(r, HOSTS);
export const url = (r, h = host(r)) => `https://${h}/${pick(r, PATHS)}`;

// File names for the composed requests of both classes (languages.mjs): `report-12.pdf`, `Q2 slides.pptx`.
const FILE_STEMS = ['report', 'notes', 'budget', 'agenda', 'slides', 'recipe', 'invoice', 'photo', 'contract', 'Q2 slides', 'budget 2025', 'offer letter', 'minutes', 'roadmap', 'payslip', 'scan', 'draft'];
const FILE_TYPES = ['docx', 'xlsx', 'pdf', 'txt', 'png', 'pptx', 'csv', 'zip'];
export const fileName = (r) => `${pick(r, FILE_STEMS)}${r() < 0.5 ? `-${int(r, 1, 99)}` : ''}.${pick(r, FILE_TYPES)}`;
