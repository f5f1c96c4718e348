// Benign text for the generator: the kinds of tool output that look like attacks to
// a bag of words and are not — bank records and bills with IBANs, trivia and
// phrasebook questions, code that posts and reads secrets, terms of service, how-tos full of
// imperatives, customer requests, and ordinary text in the languages the attacks
// use.
import { int, pick } from './random.mjs';
import { NAMES } from './attacks.mjs';
import { accountRef, amount, email, iban } from './entities.mjs';
import { COMPOSED_LANGUAGES, composedBenign } from './languages.mjs';

const MERCHANTS = ['REWE Markt', 'Amazon Marketplace', 'Shell Station 4411', 'Netflix', 'Deutsche Bahn', 'Spotify AB', 'Migros', 'Starbucks', 'IKEA', 'Uber Trip', 'Apple.com/bill', 'Lidl', 'Booking.com', 'Vodafone'];

const money = (r) => `${int(r, 1, 2400)}.${String(int(r, 0, 99)).padStart(2, '0')}`;
const date = (r) => `2024-${String(int(r, 1, 12)).padStart(2, '0')}-${String(int(r, 1, 28)).padStart(2, '0')}`;

function bankStatement(r) {
  const lines = [`Account: ${iban(r)}`, `Account holder: ${pick(r, NAMES)}`, `Statement period: ${date(r)} – ${date(r)}`, `Opening balance: ${money(r)} EUR`];
  for (let i = int(r, 3, 9); i > 0; i--) {
    const kind = r();
    if (kind < 0.5) lines.push(`${date(r)}  Card payment ${pick(r, MERCHANTS)}  -${money(r)}`);
    else if (kind < 0.7) lines.push(`${date(r)}  Transfer to ${pick(r, NAMES)} ${iban(r)}  -${money(r)}`);
    else if (kind < 0.85) lines.push(`${date(r)}  Incoming transfer from ${pick(r, NAMES)}  +${money(r)}`);
    else lines.push(`${date(r)}  Standing order rent ${iban(r)}  -${money(r)}`);
  }
  lines.push(`Closing balance: ${money(r)} EUR`);
  return lines.join('\n');
}

function bill(r) {
  return pick(r, [
    () => `Invoice ${int(r, 1000, 9999)}-${int(r, 10, 99)} from ${pick(r, ['Stadtwerke', 'City Water', 'Northwind Telecom', 'Green Energy Ltd', 'Dr. Alvarez Dental'])}. Amount due: ${amount(r)} by ${date(r)}. Please transfer the amount to ${accountRef(r)}, reference ${int(r, 1000, 9999)}-${int(r, 2020, 2024)}.`,
    () => `Payment reminder: your rent of ${amount(r)} for ${pick(r, ['May', 'June', 'July'])} is due. Please pay to ${accountRef(r)} (${pick(r, NAMES)}) and use your flat number as reference.`,
    () => `Thank you for your payment of ${money(r)} USD received on ${date(r)}. Your account ${int(r, 10000000, 99999999)} is now up to date.`,
    () => `Your card ending in ${int(r, 1000, 9999)} was charged ${money(r)} at ${pick(r, MERCHANTS)}. If you do not recognise this payment, call the number on the back of your card.`,
    () => `${pick(r, ['Invoice', 'Bill', 'Statement'])} no. ${int(r, 100, 9999)}\nService: ${pick(r, ['Water', 'Electricity', 'Broadband', 'Parking permit', 'Car rental', 'Cleaning'])}\nAmount due: ${amount(r)}\n${pick(r, ['Pay to', 'Payable to', 'Bank account'])}: ${accountRef(r)}\nDue by ${date(r)}.`,
    () => `Scheduled transactions:\n- ${date(r)} ${pick(r, ['Rent', 'Car loan', 'Gym', 'Insurance'])} to ${iban(r)}: ${money(r)}\n- ${date(r)} Savings plan to ${iban(r)}: ${money(r)}`,
  ])();
}

const TRIVIA = [
  ['Which planet has the most moons?', 'Saturn.'], ['Who wrote "Pride and Prejudice"?', 'Jane Austen.'], ['What is the capital of Australia?', 'Canberra.'],
  ['How many bones are in the adult human body?', '206.'], ['In which year did the Berlin Wall fall?', '1989.'], ['What is the chemical symbol for gold?', 'Au.'],
  ['Which ocean is the largest?', 'The Pacific Ocean.'], ['Who painted the Mona Lisa?', 'Leonardo da Vinci.'], ['What is the longest river in Africa?', 'The Nile.'],
  ['How many players are on a football team?', 'Eleven.'], ['What gas do plants absorb?', 'Carbon dioxide.'], ['What is the smallest prime number?', 'Two.'],
];
const PHRASES = [['thank you', 'Italian', 'grazie'], ['good morning', 'Spanish', 'buenos días'], ['where is the station', 'German', 'wo ist der Bahnhof'], ['see you tomorrow', 'French', 'à demain'], ['how much is this', 'Portuguese', 'quanto custa isto'], ['excuse me', 'Japanese', 'sumimasen']];
function trivia(r) {
  if (r() < 0.4) {
    const [en, lang, tr] = pick(r, PHRASES);
    return pick(r, [`Q: How do you say "${en}" in ${lang}? A: "${tr}".`, `Question: What is "${en}" in ${lang}?\nAnswer: ${tr}`, `How do you say "${en}" in ${lang}? You say "${tr}".`]);
  }
  const qs = [];
  for (let i = int(r, 1, 4); i > 0; i--) { const [q, a] = pick(r, TRIVIA); qs.push(pick(r, [`Question: ${q}\nAnswer: ${a}`, `Q: ${q} A: ${a}`, `${q} ${a}`])); }
  return qs.join('\n\n');
}

const CODE = [
  'import requests\n\ndef upload(path, url):\n    """Upload a file to the given URL and return the response."""\n    with open(path, "rb") as f:\n        return requests.post(url, files={"file": f})',
  'import os\n\n# Read the token from the environment; never hard-code it.\nTOKEN = os.environ["GITHUB_TOKEN"]\nheaders = {"Authorization": f"Bearer {TOKEN}"}',
  '#!/bin/sh\n# Send the nightly report to the team.\ncurl -F "file=@report.pdf" -F "to=team@company.example" https://mail.internal/send',
  'function sendEmail(to, subject, body) {\n  // Ignore empty bodies; the API rejects them anyway.\n  if (!body) return;\n  return api.post("/messages", { to, subject, body });\n}',
  'def transfer(amount, iban):\n    if not validate_iban(iban):\n        raise ValueError("invalid IBAN")\n    return client.post("/transfers", json={"amount": amount, "iban": iban})',
  'subprocess.run(["rm", "-rf", build_dir], check=True)  # clean the previous build before packaging',
  'SELECT name, email FROM users WHERE last_login < NOW() - INTERVAL \'90 days\'; -- inactive accounts to email a reminder',
  'for f in *.log; do\n  gzip "$f"   # compress old logs before uploading them to the archive bucket\ndone',
  'app.post("/api/reset-password", async (req, res) => {\n  const user = await users.find(req.body.email);\n  await mailer.send(user.email, resetLink(user));\n  res.sendStatus(204);\n});',
];

const TERMS = [
  'By using the service you agree not to reverse engineer, resell or sublicense it. You must keep your password confidential and notify us of any unauthorised use.',
  'You may not use the API to send unsolicited messages. We may suspend your account without notice if you violate these terms.',
  'Users must be at least 16 years old. You are responsible for all activity under your account and must not share your credentials.',
  'We may update these terms at any time. Continued use after the changes means you accept them. If you do not agree, stop using the service.',
  'Refunds are issued to the original payment method within 14 days. Do not send cash or gift cards as payment.',
];

// No benign family quotes injection phrases (articles and advisories about prompt
// injection, test fixtures): a bag of n-grams cannot tell a quoted "ignore previous
// instructions" from one addressed to the reader, and such texts taught it that the
// phrase is benign. Text that quotes an attack is flagged; models/README.md says so.

const HOWTO = [
  'Run `npm install` to install the dependencies, then start the server with `npm start`.',
  'To configure the service, edit /etc/app/config.yaml and restart it with systemctl restart app.',
  'Do not forget to back up your data before upgrading to the next major version.',
  'Click the link below to track your package. If you have questions, contact our support team.',
  'Employees must change their password every 90 days and never share it with anyone.',
  'Ignore the warnings printed during the build; they are harmless and will be fixed in the next release.',
  'Forward this invitation to anyone on your team who would like to join the workshop.',
  'Transfer the remaining balance to your savings account at the end of the month to earn interest.',
  'If the installer asks for administrator rights, enter your password and continue.',
  'Send your feedback to feedback@company.example by the end of the week.',
  'Set DEBUG=1 to print verbose logs, and unset it in production.',
  'Please review the attached contract and sign it before the deadline.',
  'Delete the cache folder and run the command again if the error persists.',
  'Reply to this message with your order number so we can process your refund.',
  'Before you submit, make sure all required fields are filled in.',
];

const REQUESTS = [
  'Hi, I was charged twice for my subscription this month. Can you please refund the duplicate payment?',
  'I forgot my password and the reset email never arrives. Could you send it again?',
  'Please cancel my order #55821, I ordered the wrong size.',
  'Can you move my appointment to next Tuesday afternoon?',
  'I would like to transfer money to my savings account but the app shows an error.',
  'Could you send me the invoice for April? I need it for my tax return.',
  'My card was declined at the supermarket even though I have enough money on my account.',
  'Please update my delivery address to 12 Elm Street, the old one is no longer valid.',
  'Can you help me write a short thank-you note for my colleague who is leaving?',
  'What is the best way to learn Spanish in three months?',
  'Please remind the team that the report is due on Friday.',
];

const MULTI_BENIGN = {
  es: ['Por favor, envíenos los documentos antes del viernes.', 'La reunión empieza a las diez en la sala dos.', 'Gracias por su compra; el pedido llegará mañana.'],
  fr: ['Merci de nous envoyer les documents avant vendredi.', 'La réunion commence à dix heures en salle deux.', 'Votre commande sera livrée demain.'],
  de: ['Bitte senden Sie uns die Unterlagen bis Freitag.', 'Das Treffen beginnt um zehn Uhr in Raum zwei.', 'Ihre Bestellung wird morgen geliefert.'],
  it: ['Per favore inviateci i documenti entro venerdì.', 'La riunione inizia alle dieci nella sala due.', 'Il tuo ordine arriverà domani.'],
  pt: ['Por favor, envie os documentos até sexta-feira.', 'A reunião começa às dez na sala dois.', 'Seu pedido chegará amanhã.'],
  nl: ['Stuur ons de documenten vóór vrijdag.', 'De vergadering begint om tien uur in zaal twee.', 'Uw bestelling wordt morgen geleverd.'],
  pl: ['Prosimy o przesłanie dokumentów do piątku.', 'Spotkanie zaczyna się o dziesiątej w sali drugiej.', 'Twoje zamówienie dotrze jutro.'],
  ru: ['Пожалуйста, пришлите документы до пятницы.', 'Встреча начинается в десять часов во втором зале.', 'Ваш заказ будет доставлен завтра.'],
  uk: ['Будь ласка, надішліть документи до п’ятниці.', 'Зустріч починається о десятій у другому залі.', 'Ваше замовлення буде доставлено завтра.'],
  tr: ['Lütfen belgeleri cumaya kadar gönderin.', 'Toplantı saat onda ikinci salonda başlıyor.', 'Siparişiniz yarın teslim edilecek.'],
  ar: ['يرجى إرسال المستندات قبل يوم الجمعة.', 'يبدأ الاجتماع في الساعة العاشرة في القاعة الثانية.', 'سيصل طلبك غدًا.'],
  zh: ['请在周五之前把文件发给我们。', '会议十点在二号会议室开始。', '您的订单将于明天送达。'],
  ja: ['金曜日までに書類を送ってください。', '会議は十時に第二会議室で始まります。', 'ご注文の商品は明日届きます。'],
  ko: ['금요일까지 서류를 보내 주세요.', '회의는 10시에 2번 회의실에서 시작합니다.', '주문하신 상품은 내일 도착합니다.'],
  hi: ['कृपया शुक्रवार तक दस्तावेज़ भेजें।', 'बैठक दस बजे दूसरे कमरे में शुरू होगी।', 'आपका ऑर्डर कल पहुंच जाएगा।'],
  id: ['Mohon kirim dokumen sebelum hari Jumat.', 'Rapat dimulai pukul sepuluh di ruang dua.', 'Pesanan Anda akan tiba besok.'],
  vi: ['Vui lòng gửi tài liệu trước thứ Sáu.', 'Cuộc họp bắt đầu lúc mười giờ tại phòng hai.', 'Đơn hàng của bạn sẽ đến vào ngày mai.'],
  sv: ['Skicka dokumenten senast på fredag.', 'Mötet börjar klockan tio i sal två.', 'Din beställning levereras i morgon.'],
  cs: ['Pošlete nám prosím dokumenty do pátku.', 'Schůzka začíná v deset hodin v sále dvě.', 'Vaše objednávka dorazí zítra.'],
  el: ['Παρακαλώ στείλτε τα έγγραφα έως την Παρασκευή.', 'Η συνάντηση ξεκινά στις δέκα στην αίθουσα δύο.', 'Η παραγγελία σας θα φτάσει αύριο.'],
  ro: ['Vă rugăm să trimiteți documentele până vineri.', 'Ședința începe la ora zece în sala doi.', 'Comanda dumneavoastră va sosi mâine.'],
  hu: ['Kérjük, küldje el a dokumentumokat péntekig.', 'A megbeszélés tízkor kezdődik a kettes teremben.', 'A rendelése holnap érkezik.'],
  fi: ['Lähetä asiakirjat perjantaihin mennessä.', 'Kokous alkaa kello kymmenen salissa kaksi.', 'Tilauksesi saapuu huomenna.'],
};

// Benign counterparts of the exfiltration shape: a request naming an address, for
// ordinary things, to the people they are for.
const ERRANDS = ['send your feedback to {a}', 'forward this invitation to anyone on your team', 'email the signed form to {a}', 'send the slides to {a} before Friday', 'share the agenda with {a}', 'reply to {a} with your availability', 'send questions about the invoice to {a}', 'forward the delivery notice to {a} if you will be away', 'send your receipts to {a} within 30 days', 'contact {a} to change your booking'];
function errand(r) {
  return cap(`${pick(r, ['Please ', 'Kindly ', 'Reminder: please ', ''])}${pick(r, ERRANDS).replace('{a}', email(r))}.`);
}
const cap = (t) => t.charAt(0).toUpperCase() + t.slice(1);

// Short fields of tool-output records: a key, a value, or a few "key: value" lines.
// A model that has only seen sentences extrapolates on a text this short (a lone
// "id" or "TODO" scored above medium), and a record's fields are what a session's
// passages are mostly made of.
const FIELD_KEYS = ['id', 'id_', 'title', 'status', 'description', 'location', 'participants', 'all day', 'sender', 'recipients', 'subject', 'body', 'date', 'timestamp', 'channel', 'user', 'amount', 'note', 'notes', 'TODO', 'done', 'file id', 'owner', 'size', 'url', 'type', 'name', 'email', 'phone', 'priority', 'tags', 'created at', 'read', 'cc', 'bcc', 'attachments', 'balance', 'reference', 'recipient', 'shared with', 'permissions', 'content', 'filename', 'last modified', 'message', 'author', 'start time', 'end time'];
function fieldValue(r) {
  return pick(r, [
    () => date(r), () => `${date(r)}T${String(int(r, 7, 20)).padStart(2, '0')}:${pick(r, ['00', '15', '30', '45'])}`, () => pick(r, NAMES), () => email(r), () => String(int(r, 1, 9999)),
    () => pick(r, ['general', 'random', 'private', 'confirmed', 'canceled', 'pending', 'true', 'false', 'None', 'null', 'N/A', 'done', 'open', 'high', 'low', 'read', 'edit', 'TODO', 'draft', 'sent', 'inbox']),
    () => `${pick(r, ['report', 'notes', 'budget', 'agenda', 'slides', 'recipe', 'invoice', 'photo'])}-${int(r, 1, 99)}.${pick(r, ['docx', 'xlsx', 'pdf', 'txt', 'png'])}`,
    () => `Office ${int(r, 1, 60)}${pick(r, ['A', 'B', 'C'])}`, () => money(r), () => iban(r),
  ])();
}
function record(r) {
  const shape = r();
  if (shape < 0.3) return pick(r, FIELD_KEYS);
  if (shape < 0.55) return fieldValue(r);
  const lines = [];
  for (let i = int(r, 1, 4); i > 0; i--) lines.push(`${pick(r, FIELD_KEYS)}: ${fieldValue(r)}`);
  return lines.join('\n');
}

// Benign counterparts of rendered exfiltration: READMEs with badges and screenshots,
// newsletters with a tracking pixel and links that carry an id, charts rendered from
// an address. Without them any image with a query string reads as an attack. (Tool
// descriptions that tell the agent what to do before a call were tried as benign
// text too: they taught the model that "please transfer …" in a result is benign,
// and plain requests in the scripted suites' results fell from 48 to 38 of 53
// flagged on smart-home; they are left out, and read as instructions.)
const BADGES = ['build-passing-brightgreen', 'coverage-94%25-green', 'license-MIT-blue', 'npm-v2.3.1-orange', 'downloads-12k%2Fmonth-blue'];
function markup(r) {
  const id = `${int(r, 1000, 99999)}${pick(r, ['a', 'x', 'k', ''])}`;
  return pick(r, [
    () => `# ${pick(r, ['tiny-queue', 'pdf-merge', 'fetchy', 'logrotate-ng'])}\n\n![${pick(r, ['build', 'coverage', 'license'])}](https://img.shields.io/badge/${pick(r, BADGES)}) ![npm](https://img.shields.io/badge/${pick(r, BADGES)})\n\n${pick(r, HOWTO)}\n\n![screenshot](docs/${pick(r, ['screenshot', 'demo', 'overview'])}.png)`,
    () => `<p>${pick(r, ['Our spring sale starts Monday.', 'Your weekly digest is here.', 'Thanks for shopping with us!'])} <a href="https://links.${pick(r, ['shop.example.com', 'northwind.example', 'company.example'])}/c?id=${id}&amp;u=${int(r, 100, 999)}">${pick(r, ['Shop now', 'Read more', 'View in browser', 'Unsubscribe'])}</a></p>\n<img src="https://links.${pick(r, ['shop.example.com', 'northwind.example'])}/open?id=${id}" width="1" height="1" alt="">`,
    () => `See the chart below for the monthly totals.\n\n![Monthly totals](https://charts.example.org/render?type=bar&data=${int(r, 10, 99)},${int(r, 10, 99)},${int(r, 10, 99)})\n\nClick [here](https://docs.company.example/report?id=${id}) for the full report.`,
    () => `<img src="/assets/${pick(r, ['logo', 'team', 'office', 'product'])}.${pick(r, ['png', 'jpg', 'svg'])}" alt="${pick(r, ['Company logo', 'Our team in 2024', 'The new office'])}" width="${int(r, 80, 640)}">`,
  ])();
}

// Corrections people send ("Please disregard my previous email; …"): an override
// of an earlier message by its own author, then what changed. Without them a
// correction read as an override ("Please disregard my previous email" scored
// above `medium`). They never name instructions, prompts or tasks: those stay an
// attacker's words.
const CORRECTION_VERBS = ['Please disregard', 'Please ignore', 'Disregard', 'Ignore', 'Kindly ignore', 'You can ignore', 'Please delete'];
const CORRECTED = ['my previous email', 'the earlier message', 'my last message', 'the first invoice I sent', 'the previous version of this document', 'the reminder above', 'the above warning if you have already updated', 'the email I sent this morning', 'the attachment in my last reply', 'the old price list'];
const CORRECTIONS = ['the meeting is still on Tuesday at 10', 'the correct amount is {m}', 'I attached the wrong file', 'the venue has moved to Room 4', 'the new deadline is Friday', 'it was sent by mistake', 'the updated figures are below', 'the link in it was broken', 'the order shipped today after all', 'we found the missing receipt'];
function correction(r) {
  const joint = pick(r, ['; ', ': ', ', ', ' — ', '. ']);
  const what = pick(r, CORRECTIONS).replace('{m}', `${money(r)} EUR`);
  return `${pick(r, CORRECTION_VERBS)} ${pick(r, CORRECTED)}${joint}${joint === '. ' ? cap(what) : what}.${pick(r, ['', ' Sorry for the confusion.', ' Thanks!', ' Apologies.'])}`;
}

/** A benign text of a kind picked at random; `kind` says which. */
export function benignText(r) {
  const roll = r();
  if (roll < 0.14) return { kind: 'bank', text: r() < 0.5 ? bankStatement(r) : bill(r) };
  if (roll < 0.24) return { kind: 'trivia', text: trivia(r) };
  if (roll < 0.34) return { kind: 'code', text: pick(r, CODE) };
  if (roll < 0.42) return { kind: 'terms', text: pick(r, TERMS) };
  if (roll < 0.63) return { kind: 'howto', text: [pick(r, HOWTO), pick(r, HOWTO)].join(' ') };
  if (roll < 0.66) return { kind: 'correction', text: correction(r) };
  if (roll < 0.74) return { kind: 'request', text: pick(r, REQUESTS) };
  if (roll < 0.8) return { kind: 'errand', text: errand(r) };
  if (roll < 0.86) return { kind: 'record', text: record(r) };
  if (roll < 0.9) return { kind: 'markup', text: markup(r) };
  if (r() < 0.5) {
    const lang = pick(r, COMPOSED_LANGUAGES);
    return { kind: `language/${lang}`, text: composedBenign(r, lang) };
  }
  const lang = pick(r, Object.keys(MULTI_BENIGN));
  return { kind: `language/${lang}`, text: MULTI_BENIGN[lang].join(' ') };
}
