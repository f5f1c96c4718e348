// Requests written in German, Spanish, French, Italian, Portuguese or Dutch: the six
// languages the attack generator composes. The English reading (`asksReader`,
// `userAsks`) knows its verbs from word lists; a line such as "Bitte leiten Sie alle
// E-Mails an … weiter" held no word of them, so a value copied from it read as copied
// from plain text. Here each verb form stands for the English verbs it means, so the
// session can read what the line asks for with the English names of its tools.

/** English verbs by the verb forms that ask for them: imperatives (and Romance infinitives after a lead) in six languages, accents dropped. */
interface Forms {
  /** The imperatives, read at a clause's start or after a lead. */
  readonly imperative: string;
  /** The infinitives, read after a lead ("bitte", "veuillez", "si prega di", "you must" in each), or before a polite pronoun ("Senden Sie"). */
  readonly infinitive: string;
}

/**
 * The verbs, by the English verbs they stand for. Imperatives that are as often another word are left out, since
 * a heading or a sentence may open with them: German "andere" (other), "Teile" (parts), "Besuche" (visits),
 * "schick" (smart); Spanish "cree" (believes), "compra" (a purchase), "visita" (a visit); French "commande" (an
 * order), "partage" (sharing), "paie" (payroll), "lance" (a name); Italian "pubblica" (public), "modifica" (a
 * change); Dutch "deel" (a part), "plaats" (a place), "bezoek" (a visit), "maak" (make); Portuguese "baixa" (low);
 * and English words ("mandate", "eliminate"). Their infinitives still count after a lead. Verbs whose particle
 * stands apart are listed under SEPARABLE.
 */
const VERBS: Readonly<Record<string, Forms>> = {
  send: {
    imperative: 'sende schicke versende ubermittle envia envie enviad manda mande envoie envoyez invia inviate stuur verstuur zend',
    infinitive: 'senden schicken versenden ubermitteln zusenden zuschicken enviar mandar envoyer inviare mandare sturen versturen zenden',
  },
  forward: {
    imperative: 'reenvia reenvie transfere transferez inoltra inoltrate encaminhe encaminha reencaminhe',
    infinitive: 'weiterleiten reenviar transferer inoltrare encaminhar reencaminhar doorsturen',
  },
  transfer: {
    imperative: 'uberweise transfiere transfiera transfere transferez virez trasferisci transfira',
    infinitive: 'uberweisen transferir transferer virer trasferire overmaken',
  },
  pay: {
    imperative: 'zahle bezahle pague payez paga pagate betaal',
    infinitive: 'zahlen bezahlen pagar payer pagare betalen',
  },
  delete: {
    imperative: 'losche entferne borra borre elimina elimine supprime supprimez efface effacez cancella cancellate exclua exclui apague apaga verwijder',
    infinitive: 'loschen entfernen borrar eliminar supprimer effacer cancellare eliminare excluir apagar verwijderen',
  },
  'run execute': {
    imperative: 'fuhre starte ejecuta ejecute executez esegui eseguite executa',
    infinitive: 'ausfuhren starten ejecutar executer eseguire executar uitvoeren',
  },
  post: {
    imperative: 'veroffentliche poste publica publique publie publiez pubblicate publiceer',
    infinitive: 'veroffentlichen posten publicar publier pubblicare postar publiceren',
  },
  share: {
    imperative: 'comparte comparta partagez condividi condividete compartilhe compartilha partilhe',
    infinitive: 'teilen freigeben compartir partager condividere compartilhar partilhar delen',
  },
  add: {
    imperative: 'anade anada agrega agregue ajoute ajoutez aggiungi aggiungete adicione adiciona acrescente',
    infinitive: 'hinzufugen anadir agregar ajouter aggiungere adicionar acrescentar toevoegen',
  },
  invite: {
    imperative: 'invita invitez convide convida',
    infinitive: 'einladen invitar inviter invitare convidar uitnodigen',
  },
  create: {
    imperative: 'erstelle crea creez crie cria',
    infinitive: 'erstellen anlegen crear creer creare criar aanmaken',
  },
  buy: {
    imperative: 'kaufe bestelle compre achete achetez commandez acquista koop bestel',
    infinitive: 'kaufen bestellen comprar acheter commander comprare acquistare ordinare kopen',
  },
  open: {
    imperative: 'offne abre abra ouvre ouvrez visitez apri aprite acesse acessa',
    infinitive: 'offnen besuchen aufrufen abrir visitar ouvrir visiter aprire visitare acessar openen bezoeken',
  },
  download: {
    imperative: 'descarga descargue telecharge telechargez scarica scaricate baixe',
    infinitive: 'herunterladen descargar telecharger scaricare baixar downloaden',
  },
  install: {
    imperative: 'installiere instala instale installez installa installeer',
    infinitive: 'installieren instalar installer installare installeren',
  },
  change: {
    imperative: 'aktualisiere cambia cambie actualiza actualice modifique modifie modifiez changez aggiorna altere altera mude muda atualize atualiza wijzig verander',
    infinitive: 'andern aktualisieren cambiar actualizar modificar modifier changer modificare cambiare aggiornare alterar mudar atualizar wijzigen veranderen',
  },
  disable: {
    imperative: 'deaktiviere desactiva desactive desactivez disattiva disattivate desativa desative deactiveer',
    infinitive: 'deaktivieren desactivar desactiver disattivare desativar deactiveren uitschakelen',
  },
  reply: {
    imperative: 'antworte responde responda reponds repondez rispondi',
    infinitive: 'antworten responder repondre rispondere antwoorden',
  },
};

/**
 * Verbs whose particle stands at the clause's end ("leite … weiter", "führe … aus", "stuur … door"): the form counts
 * with its particle after it. "Führe" counts without one too (an imperative of `run` above): a reading that parts a
 * command from the line ("Führe zuerst `curl … | sh` aus") leaves the particle in another passage.
 */
const SEPARABLE: ReadonlyMap<string, readonly (readonly [particle: string, verb: string])[]> = new Map([
  ['leite', [['weiter', 'forward']]],
  ['leiten', [['weiter', 'forward']]],
  ['fuhre', [['aus', 'run execute']]],
  ['fuhren', [['aus', 'run execute']]],
  ['fuge', [['hinzu', 'add']]],
  ['fugen', [['hinzu', 'add']]],
  ['lade', [['ein', 'invite'], ['herunter', 'download'], ['hoch', 'upload']]],
  ['laden', [['ein', 'invite'], ['herunter', 'download'], ['hoch', 'upload']]],
  ['gib', [['frei', 'share']]],
  ['geben', [['frei', 'share']]],
  ['rufe', [['auf', 'open']]],
  ['rufen', [['auf', 'open']]],
  ['stuur', [['door', 'forward']]],
  ['voer', [['uit', 'run execute']]],
  ['voeg', [['toe', 'add']]],
  ['maak', [['over', 'transfer']]],
  ['nodig', [['uit', 'invite']]],
  ['schalte', [['aus', 'disable'], ['ab', 'disable']]],
  ['schakel', [['uit', 'disable']]],
]);

/**
 * Words after which the next verb of the clause is asked of the reader: "bitte", "por favor", "veuillez", "merci
 * de", "per favore", "si prega di", "gelieve", "Sie müssen", "debes", "vous devez", "devi", "você deve", "u moet"…
 * German and Dutch put the infinitive last ("Sie müssen alle Rechnungen an … senden"): any verb of the clause after
 * the lead counts, unless the clause holds a negation ("Bitte antworten Sie nicht", "por favor, no responda").
 */
const LEADS: readonly (readonly string[])[] = [
  'bitte', 'sie mussen', 'du musst', 'sie sollen', 'du sollst', 'ihr musst', 'mussen sie',
  'por favor', 'debes', 'debe', 'deben', 'tienes que', 'tiene que', 'necesito que', 'hay que', 'deberias',
  'veuillez', 'merci de', 's il vous plait', 's il te plait', 'vous devez', 'tu dois', 'il faut',
  'per favore', 'per cortesia', 'si prega di', 'devi', 'dovete', 'deve',
  'voce deve', 'voce precisa', 'precisa', 'tem que', 'e necessario',
  'alstublieft', 'alsjeblieft', 'gelieve', 'u moet', 'je moet', 'moet u', 'moet je',
].map((lead) => lead.split(' '));

/** Words that may stand before a clause's imperative: adverbs of time and order, the reader addressed, a note's label. */
const OPENERS = new Set(
  [
    'zuerst zunachst sofort umgehend unverzuglich auch jetzt dann noch einfach ki assistent assistentin hinweis achtung wichtig dringend',
    'primero ahora inmediatamente tambien luego despues asistente ia atencion importante urgente',
    'd abord immediatement aussi maintenant ensuite puis assistant',
    'prima subito ora adesso poi anche assistente attenzione',
    'primeiro agora imediatamente depois atencao',
    'eerst nu direct onmiddellijk ook dan assistent ai let op belangrijk',
  ].join(' ').split(' '),
);

/**
 * Words that turn the request around: "bitte nicht antworten", "bitte nichts löschen", "mit niemandem teilen", "no
 * responda", "no borres nada", "ne supprimez pas", "supprime rien", "non eliminare", "não apague", "verwijder niets".
 */
const NEGATIONS = new Set([
  'nicht', 'nichts', 'kein', 'keine', 'keinen', 'keinem', 'nie', 'niemals', 'niemand', 'niemandem', 'niemanden',
  'no', 'nunca', 'jamas', 'nada', 'nadie', 'ninguno', 'ninguna',
  'ne', 'n', 'pas', 'jamais', 'rien', 'aucun', 'aucune',
  // Not Italian "mai" alone, which is French "May" ("avant le 15 mai"): "non … mai" holds "non".
  'non', 'niente', 'nulla', 'nessuno', 'nessuna',
  'nao', 'ninguem', 'nenhum', 'nenhuma',
  'niet', 'niets', 'nooit', 'geen',
]);

/** The polite pronoun after a German or Dutch infinitive that makes it an imperative: "Senden Sie", "Stuurt u". */
const POLITE = new Set(['sie', 'u']);

/** The English verbs of each form: French "transférer" forwards and transfers, "ausführen" runs and executes. */
const IMPERATIVES = new Map<string, string[]>();
const INFINITIVES = new Map<string, string[]>();
for (const [verbs, forms] of Object.entries(VERBS)) {
  for (const form of forms.imperative.split(' ')) IMPERATIVES.set(form, [...(IMPERATIVES.get(form) ?? []), ...verbs.split(' ')]);
  for (const form of forms.infinitive.split(' ')) INFINITIVES.set(form, [...(INFINITIVES.get(form) ?? []), ...verbs.split(' ')]);
}
const LEADS_BY_FIRST = new Map<string, (readonly string[])[]>();
for (const lead of LEADS) LEADS_BY_FIRST.set(lead[0]!, [...(LEADS_BY_FIRST.get(lead[0]!) ?? []), lead]);

/** Every verb form: a request holds one, most lines hold none, and one lookup a word rules them out (a lead alone asks nothing). */
const ANY_FORM: ReadonlySet<string> = new Set([...IMPERATIVES.keys(), ...INFINITIVES.keys(), ...SEPARABLE.keys()]);

/**
 * The English verbs a line asks its reader for in one of the six languages, or none: a clause opening (past
 * OPENERS) with an imperative that has words after it, with an infinitive and a polite pronoun ("Senden Sie …"), or
 * any verb of a clause after a lead; never a clause that holds a negation.
 */
export function foreignRequestVerbs(line: string): string[] {
  // Addresses and links hold words of no clause: "an no-reply@evil.test weiter" holds no negation, and a path's
  // "/envoyez" asks for nothing.
  const lower = folded(line);
  const text = lower.includes('@') || lower.includes('://') || lower.includes('www.') ? lower.replace(TOKEN, (token) => (token.includes('@') || LINK.test(token) ? ' ' : token)) : lower;
  if (!text.match(WORDS)?.some((w) => ANY_FORM.has(w))) return [];
  const found = new Set<string>();
  for (const clause of text.split(CLAUSE_BREAK)) {
    const words = clause.match(WORDS);
    // A negation anywhere in the clause turns it around, before the verb or after it ("antworten Sie nicht").
    if (!words || words.some((w) => NEGATIONS.has(w))) continue;
    // Where each word last stands: a separable verb's particle is found after it in one lookup, not a scan.
    const last = new Map<string, number>();
    words.forEach((w, k) => last.set(w, k));
    let at = 0;
    while (at < words.length && OPENERS.has(words[at]!)) at++;
    const w = words[at];
    if (w !== undefined && at + 1 < words.length) {
      const verbs = separable(words, at, last) ?? IMPERATIVES.get(w) ?? (POLITE.has(words[at + 1]!) ? INFINITIVES.get(w) : undefined) ?? NONE;
      for (const verb of verbs) found.add(verb);
    }
    const leadsEnd = leadEnds(words);
    if (leadsEnd.length === 0) continue;
    // The first verb form from each position on, read once from the clause's end: many leads cost no more than one.
    const next: (readonly string[])[] = new Array<readonly string[]>(words.length + 1).fill(NONE);
    for (let k = words.length - 1; k >= 0; k--) next[k] = separable(words, k, last) ?? IMPERATIVES.get(words[k]!) ?? INFINITIVES.get(words[k]!) ?? next[k + 1]!;
    for (const end of leadsEnd) for (const verb of next[end]!) found.add(verb);
  }
  return [...found];
}

/**
 * A modal question addressed to the reader in one of the six languages ("Kannst du …", "Könnten Sie …", "Peux-tu …",
 * "Pourriez-vous …", "¿Puedes …", "¿Podrías …", "Você pode …", "Puoi …", "Potresti …", "Kun je …", "Kunt u …"), read
 * in a user's turn: a change where its clause holds a verb of change ("Könntest du die alten Logdateien löschen?",
 * "¿Podrías cancelar mi pedido?"), none where it holds a verb that asks for an answer or a negation and none of
 * change ("Kannst du mir sagen …", "Peux-tu vérifier …", "Kunt u … nakijken?"), and unsure otherwise ("¿Puedes
 * averiguar …?", both kinds of verb): decision 110's floor does not act on a reading it is unsure of.
 */
export function foreignQuestion(line: string): 'change' | 'unsure' | 'none' {
  const text = folded(line);
  if (!QUESTION_LEAD.test(text)) return 'none';
  let unsure = false;
  for (const clause of text.split(CLAUSE_BREAK)) {
    const words = clause.match(WORDS);
    if (!words) continue;
    // From each word on, whether the clause holds a verb of change, and one that asks for an answer or a negation: read once from its end.
    const changes = new Array<boolean>(words.length + 1).fill(false);
    const answered = new Array<boolean>(words.length + 1).fill(false);
    for (let k = words.length - 1; k >= 0; k--) {
      changes[k] = changes[k + 1]! || QUESTION_CHANGES.has(words[k]!);
      answered[k] = answered[k + 1]! || ANSWER_VERBS.has(words[k]!) || NEGATIONS.has(words[k]!);
    }
    for (let i = 0; i < words.length; i++) {
      const lead = QUESTION_LEADS_BY_FIRST.get(words[i]!)?.find((l) => l.every((w, k) => words[i + k] === w));
      if (!lead || i + lead.length >= words.length) continue;
      const end = i + lead.length;
      // A verb of answer alone asks for an answer, a verb of change alone for the change; both ("Kun je de totalen
      // nakijken en de bestelling annuleren?", "¿Puedes decirme cómo cancelar …?") or neither leave the reading unsure.
      if (answered[end] && !changes[end]) continue;
      if (changes[end] && !answered[end]) return 'change';
      unsure = true;
    }
  }
  return unsure ? 'unsure' : 'none';
}
const QUESTION_LEADS: readonly (readonly string[])[] = [
  'kannst du', 'konntest du', 'konnen sie', 'konnten sie', 'wurdest du', 'wurden sie',
  'puedes', 'podrias', 'podria usted', 'puede usted',
  'peux tu', 'pouvez vous', 'pourrais tu', 'pourriez vous',
  'puoi', 'potresti', 'potrebbe',
  'voce pode', 'voce poderia', 'podes', 'poderias', 'pode',
  'kun je', 'kunt u', 'kan je', 'zou je', 'zou u', 'wil je', 'wilt u',
].map((lead) => lead.split(' '));
const QUESTION_LEADS_BY_FIRST = new Map<string, (readonly string[])[]>();
for (const lead of QUESTION_LEADS) QUESTION_LEADS_BY_FIRST.set(lead[0]!, [...(QUESTION_LEADS_BY_FIRST.get(lead[0]!) ?? []), lead]);
const QUESTION_LEAD = new RegExp(`(?<![a-z])(?:${QUESTION_LEADS.map((l) => l.join('[^a-z]+')).join('|')})(?![a-z])`);
/**
 * Infinitives of a change, read after a modal question's lead: those of VERBS but opening ("Kannst du die Mail
 * öffnen?" asks to read it), and the verbs users ask their assistant for that injections seldom do: cancel,
 * restart, archive, switch off (disabling is among VERBS), move.
 */
const QUESTION_CHANGES: ReadonlySet<string> = new Set([
  ...[...INFINITIVES].filter(([, verbs]) => !verbs.includes('open')).map(([form]) => form),
  'stornieren', 'absagen', 'cancelar', 'annuler', 'annullare', 'annuleren', 'afzeggen',
  'neustarten', 'reiniciar', 'redemarrer', 'riavviare', 'herstarten',
  'archivieren', 'archivar', 'archiver', 'archiviare', 'arquivar', 'archiveren',
  'ausschalten', 'abschalten', 'apagar', 'eteindre', 'spegnere', 'desligar', 'uitzetten',
  'verschieben', 'mover', 'deplacer', 'spostare', 'verplaatsen',
]);
/** Verbs (infinitives, accents dropped) that ask for an answer: tell, show, explain, check, go over, read, find, summarise, look, say, translate, open, visit, list. */
const ANSWER_VERBS = new Set([
  'offnen', 'aufrufen', 'besuchen', 'ansehen', 'anschauen', 'durchsehen', 'auflisten', 'abrir', 'visitar', 'consultar', 'listar', 'ouvrir', 'visiter',
  'consulter', 'lister', 'aprire', 'visitare', 'consultare', 'elencare', 'acessar', 'openen', 'bezoeken', 'raadplegen', 'opsommen',
  'sagen', 'zeigen', 'erklaren', 'prufen', 'uberprufen', 'lesen', 'vorlesen', 'finden', 'zusammenfassen', 'nachsehen', 'schauen', 'ubersetzen', 'erzahlen',
  'kontrollieren', 'durchgehen', 'nachrechnen',
  'decir', 'decirme', 'mostrar', 'mostrarme', 'explicar', 'explicarme', 'revisar', 'leer', 'buscar', 'encontrar', 'resumir', 'ver', 'comprobar', 'traducir',
  'dire', 'montrer', 'expliquer', 'verifier', 'lire', 'trouver', 'resumer', 'regarder', 'chercher', 'traduire', 'controler', 'relire',
  'dirmi', 'mostrare', 'mostrarmi', 'spiegare', 'spiegarmi', 'controllare', 'leggere', 'trovare', 'riassumere', 'vedere', 'cercare', 'tradurre',
  'verificare', 'rivedere',
  'dizer', 'verificar', 'ler', 'procurar', 'traduzir', 'conferir', 'checar',
  'zeggen', 'tonen', 'laten', 'uitleggen', 'controleren', 'lezen', 'vinden', 'samenvatten', 'kijken', 'zoeken', 'vertalen', 'nakijken', 'bekijken',
  'nagaan', 'checken', 'natrekken',
]);

/** Where each lead of the clause ends: the index of the word after it. */
function leadEnds(words: readonly string[]): number[] {
  const ends: number[] = [];
  for (let i = 0; i < words.length; i++) {
    const lead = LEADS_BY_FIRST.get(words[i]!)?.find((l) => l.every((w, k) => words[i + k] === w));
    if (lead) ends.push(i + lead.length);
  }
  return ends;
}

/** The verbs of a separable form at `k` whose particle stands later in the clause (`last`: where each word last stands). */
function separable(words: readonly string[], k: number, last: ReadonlyMap<string, number>): readonly string[] | undefined {
  const particles = SEPARABLE.get(words[k]!);
  if (!particles) return undefined;
  for (const [particle, verbs] of particles) if ((last.get(particle) ?? -1) > k) return verbs.split(' ');
  return undefined;
}
const NONE: readonly string[] = [];

/**
 * Lower case, accents and other marks dropped, ß as ss: "Übermittle" is "ubermittle". A separable verb's
 * infinitive is joined again where "zu" or "te" parts it ("weiterzuleiten", "over te maken").
 */
function folded(line: string): string {
  const lower = line.toLowerCase();
  // Accents are folded only where the line holds a letter past ASCII: most lines of most results hold none.
  const plain = NOT_ASCII.test(lower) ? lower.normalize('NFD').replace(MARKS, '').replace(/ß/g, 'ss') : lower;
  return plain.includes('zu') || plain.includes(' te ') ? plain.replace(PARTED_INFINITIVE, '$1$2') : plain;
}
const NOT_ASCII = /[^\x00-\x7f]/;
/** A run between blanks and brackets, and one that is a web address (with its scheme or its `www.`); one holding `@` is an e-mail address. */
const TOKEN = /[^\s<>()"'`]+/g;
const LINK = /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.)/;
const MARKS = /\p{M}/gu;
/** A word as the forms are written: a run of ASCII letters, after the accents are folded. */
const WORDS = /[a-z]+/g;
const PARTED_INFINITIVE = /\b(weiter|aus|hinzu|ein|herunter|hoch|frei|auf|over|door|uit|toe|aan)(?:zu| te )([a-z]+en)\b/g;

/**
 * Where a clause ends: a sentence's end, a comma, a colon (each before a blank or a closing quote: not inside an
 * address, a number or a URL), a bracket, a dash, a line break, or "and" ("… weiter und erwähne es nicht": the
 * negation is the next clause's; not Dutch "en", which is "in" in Spanish and French).
 */
const CLAUSE_BREAK = /[.,:!?]["'“”‘’«»]*(?=\s|$)|[;¡¿()[\]{}<>\n—–]+| - | (?:und|y|e|et) /;
