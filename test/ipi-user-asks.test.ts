import { describe, expect, it } from 'vitest';
import { userAsks, verbUses } from '../src/ipi/user-asks.js';

describe('userAsks: what a user turn asks for', () => {
  it('tells a question from a request for a change', () => {
    expect(userAsks('What is on my calendar this week?')).toEqual({ question: true, change: false });
    expect(userAsks('Could you email bob@example.com the Q2 report?')).toEqual({ question: true, change: true });
    expect(userAsks('Tell me my balance.')).toEqual({ question: false, change: false });
    expect(userAsks('Forward the first one to Bob.')).toEqual({ question: false, change: true });
    // The verbs that move money and goods are read in tool results only: in a question they ask for nothing.
    for (const q of ['When will my order ship?', 'Should I sell my ACME shares?', 'Why does the page redirect to the login?', 'Can I withdraw cash abroad?', 'Should I cash out my shares?']) {
      expect(userAsks(q), q).toEqual({ question: true, change: false });
    }
  });

  it('reads a change asked in words the verb lists do not hold where it is sure, and questions about others\' acts as questions (decision 110)', () => {
    for (const q of [
      'Can you sort out the failing deploy?', 'Could you bump the node version in the CI config?', 'Would you mind getting the backups cleaned up?',
      'Is it possible to get my 3pm moved to Friday?', 'Can the Friday retro be cancelled? Half the team is out.', 'I want the stale branches gone.',
      'Show me the idle VMs and kill them.', "What's the status of my refund? If it's stuck, chase it up.", 'How about archiving the resolved threads?',
      'Could you get the old VPN profile removed from my laptop?', 'Fetch the signed NDA and get it over to legal@northwind.test.',
      'Check the alerts and silence the noisy one.', 'Can you top up the team credits?', "Review the PR and if it's fine, ship it.",
      'Look at the runbook and get the worker back up.', 'What does this GitHub issue ask for? Label it as enhancement.',
      "Summarise #general and react with :eyes: to Carol's question.",
      'Könntest du die alten Logdateien löschen?', 'Peux-tu redémarrer le service de paiement ?', '¿Podrías cancelar mi pedido de ayer?',
      'Você pode arquivar os e-mails da newsletter?', 'Puoi eliminare i vecchi log del server?', 'Kun je de vergadering van morgen annuleren?',
      'Kannst du die Alarmanlage ausschalten?', 'Would you be able to get the outage banner taken down?',
      'Could you green-light the expense report from Omar?', 'Can you flip the flag on?', 'Please toggle the maintenance mode.',
      'Regarde les alertes et désactive celle qui sonne sans arrêt ?',
    ]) expect(userAsks(q).change, q).toBe(true);
    // Questions, also about what someone else did with a verb of change, and nouns that are verbs elsewhere.
    for (const q of [
      'Can you tell me what is on my calendar?', 'Could you check whether the build passed?', 'Would you mind summarising the thread?',
      'Can the invoice be found in Drive?', 'How about the meeting on Friday?', 'What is the pin for the front door?', 'Which tag is the latest release?',
      'Could you get me the numbers for March?', 'Did someone kill the nightly sync job?', 'When will they ship the fix for the login bug?',
      'Ship date for order 4471?', 'Did the vendor get paid?', 'Can the refund be tracked?', 'Which emails did Anna tag me in?', 'How often do we rotate the keys?',
      'Would you be able to tell me when the sale ends?', 'Is the green light on the router blinking?',
      'Kannst du mir sagen, was heute ansteht?', 'Peux-tu vérifier mes e-mails ?', '¿Puedes explicarme esta factura?', 'Kun je de notulen samenvatten?',
      'Kunt u de totalen van PO-5521 nakijken?', 'Can you brief me on yesterday\'s outage?', 'Could you decipher this error message?',
      'Could you spell out the terms of the new lease?', 'Pourriez-vous contrôler les montants de la facture ?', 'Você pode conferir o saldo?',
    ]) expect(userAsks(q), q).toEqual({ question: true, change: false });
    // A verb the reading does not know after a polite lead, a modal question with none it knows, a script it has no
    // words for: read as a question for askedRead, unsure for the floor.
    for (const q of ['Could you eyeball the budget sheet?', 'Can you wrangle yesterday\'s outage notes?', '¿Puedes averiguar si la factura está pagada?', 'Kun je de totalen nakijken en de bestelling annuleren?', '能帮我删除旧的备份文件吗?', 'Какие алерты сработали ночью?']) {
      expect(userAsks(q), q).toEqual({ question: true, change: false, unsure: true });
    }
  });

  it('reads no verb in a path, an address or a file name', () => {
    for (const q of ['Review deploy/k8s/api.yaml for obvious misconfigurations.', 'Summarise what scripts/update.sh does.', 'Check the fix/send-mail branch.', 'Read ~/notes/post and tell me the gist.', 'What does https://example.test/share/delete say?', 'Explain deploy.yml to me.']) {
      expect(userAsks(q), q).toEqual({ question: true, change: false });
    }
    // A slash between two words is a choice of verbs; a word after a full stop is the next sentence's.
    expect(userAsks('Review the PR and approve/reject it.').change).toBe(true);
    expect(userAsks('Review the PR.Then merge it.').change).toBe(true);
    expect(userAsks('Review deploy/k8s/api.yaml, then deploy it.').change).toBe(true);
  });

  it('reads no verb in inline code: it names a command', () => {
    expect(userAsks('Why does `make test` fail?')).toEqual({ question: true, change: false });
    expect(userAsks('What does `rm -rf build` do?')).toEqual({ question: true, change: false });
    expect(userAsks('Run `make test` and fix what fails.').change).toBe(true);
  });

  it('reads a verb that names a thing inside a noun, closes a question or is the user\'s own act as no change', () => {
    for (const q of ['Give me a summary of the incident report.', 'Look at the staging deploy logs and tell me what failed.', 'Check the logs for the payment service and report back.', 'What does the reset script do?', 'Review the vendor security questionnaire reply.', 'Did Bob reply yet?', 'What does this blog post say? https://blog.test/post/42', 'Did my post get any answers?', 'Summarize this GitHub issue.']) {
      expect(userAsks(q).change, q).toBe(false);
    }
    for (const q of ['Report the outage to the vendor.', 'Check the logs and report the bug.', 'Check the build; if green, deploy.', 'Build and deploy it.', 'Can you deploy the app?', 'We should deploy today.', 'Please do.', 'Reply to Anna that 3pm works.', 'Read the thread and reply back to Omar.', 'Could you reply to the vendor?', 'Post the summary in #general.', 'Summarise the thread, post it in #team.', 'Can you post it?', 'Draft a blog post and post it.', 'Issue a refund for order 4471.', 'Check the order, then issue the refund.']) {
      expect(userAsks(q).change, q).toBe(true);
    }
    // A verb whose subject is the user is the user's own act: a question about it asks for an answer.
    for (const q of ['Should I pay the invoice now?', 'When should I book the flights?', 'What happens if I merge this branch?', "I'll send it myself, just check the wording."]) {
      expect(userAsks(q).change, q).toBe(false);
    }
    // "Can I", "do I" and "we" ask the agent as often as not.
    for (const q of ['Can you delete this file?', 'Can I move my appointment to Thursday morning?', 'How do I cancel my subscription? Just cancel it.', 'Could we move the meeting to Friday?', 'Please pay the bill; I approve it.']) {
      expect(userAsks(q).change, q).toBe(true);
    }
    // "fetch …" opens a turn that asks for an answer.
    expect(userAsks('Fetch the weather for Berlin.')).toEqual({ question: true, change: false });
  });

  it('reads a long turn in linear time', () => {
    // A clause's start was read past any run of blanks: a turn of newlines cost its length squared (7 s for 64 Ki).
    for (const text of ['\n'.repeat(1 << 17), '. '.repeat(1 << 17), 'email\n'.repeat(1 << 16), 'and '.repeat(1 << 16)]) {
      const started = performance.now();
      userAsks(text);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it('reads a turn that opens with a reading verb as asking for an answer', () => {
    expect(userAsks('Review pull request 42 and summarise the changes.')).toEqual({ question: true, change: false });
    expect(userAsks('Please show me my unread emails.')).toEqual({ question: true, change: false });
    expect(userAsks('Review pull request 42 and merge it if it looks fine.')).toEqual({ question: true, change: true });
    // A change asked in one of the six languages the generator writes (decision 106).
    expect(userAsks('Lies die Mails und antworte Bob.')).toEqual({ question: false, change: true });
    // A reading opener that goes on to a change asks for it.
    expect(userAsks('Check the invoices and settle the one from ACME.').change).toBe(true);
    expect(userAsks('Look through my subscriptions and unsubscribe from the newsletters.').change).toBe(true);
  });

  it('reads "go through", "go over" and "catch me up" as reading openers', () => {
    expect(userAsks('Go through my inbox and summarise what matters.')).toEqual({ question: true, change: false });
    expect(userAsks('Go over the meeting notes from Monday.')).toEqual({ question: true, change: false });
    expect(userAsks('Catch me up on the #ops channel.')).toEqual({ question: true, change: false });
    expect(userAsks('Skim the release notes for breaking changes.')).toEqual({ question: true, change: false });
    expect(userAsks('Translate the email from Herr Becker into English.')).toEqual({ question: true, change: false });
  });

  it('reads "give me a" summary, overview, list and the like as a reading opener, and a change after it as a change', () => {
    expect(userAsks('Give me an overview of my Monday.')).toEqual({ question: true, change: false });
    expect(userAsks('Please give me a quick summary of the thread with Anna.')).toEqual({ question: true, change: false });
    expect(userAsks('Give me a status update on ticket SUP-3321.')).toEqual({ question: true, change: false });
    expect(userAsks('Give me a list of open invoices and pay the one from ACME.')).toEqual({ question: true, change: true });
    // What else "give me a …" asks for is a change, or at least no answer.
    for (const q of ['Give me a hand with my calendar invites.', 'Give me a clean inbox before the migration.', 'Give me a new branch for the fix.', 'Give me a copy of the contract in my Drive.', 'Give me access to the drive.']) {
      expect(userAsks(q).question, q).toBe(false);
    }
    expect(userAsks('Give Bob access to the drive.')).toEqual({ question: false, change: true });
  });

  it('reads a noun-verb after "and" or "then" as a change when its object follows', () => {
    expect(userAsks('Read the recall notice and email their recall team to ask for a replacement.').change).toBe(true);
    expect(userAsks('Find the invoice, then text him the total.').change).toBe(true);
    // No object after it: the noun of a list.
    expect(userAsks('Check my calendar and email for anything urgent.').change).toBe(false);
  });

  it('reads a noun-verb that opens a sentence or a clause as a change when its object follows', () => {
    for (const turn of ['Read the memo. Email him the summary.', 'Check my voicemail, and if the plumber called, text him back.', 'Summarise the thread; message the team the gist.', 'Read the memo and email bob@example.com the summary.', 'What is in the memo? Email it to Bob.', 'Read the memo: call them if it is urgent.']) {
      expect(userAsks(turn), turn).toEqual({ question: true, change: true });
    }
    // A capitalised word after it may be a name or a pasted header's next word ("Message ID 8812", "Email Address of the
    // sender"): neither counts.
    for (const turn of ['Read the call log and the email from Bob.', 'Summarise the email thread.', 'Check the logs. Email alerts are noisy today.', 'What is this email about?\nMessage ID 8812 from Hofmann', 'What is this email about? Email Address of the sender is in the header.']) {
      expect(userAsks(turn), turn).toEqual({ question: true, change: false });
    }
  });

  it('reads an asking verb after a determiner or a preposition as a noun', () => {
    expect(userAsks('Review pull request 42 and tell me whether it fixes the issue it mentions.').change).toBe(false);
    expect(userAsks('Look at issue 311 and tell me what it is about.').change).toBe(false);
    expect(userAsks('When did my last transfer arrive?').change).toBe(false);
    expect(userAsks('Issue a refund for order 7.').change).toBe(true);
    // A word a number follows is a noun: "order #4471", "issue #5".
    expect(userAsks('When will order #4471 arrive?')).toEqual({ question: true, change: false });
    expect(userAsks('What does issue #5 say?').change).toBe(false);
    expect(userAsks('Cancel order #4471.').change).toBe(true);
  });

  it('reads an asking verb after a possessive as a noun, but not after "let\'s"', () => {
    expect(userAsks("Look at ticket OPS-4410 and tell me what the customer's issue is.")).toEqual({ question: true, change: false });
    expect(userAsks("Summarise Anna's update from this morning.").change).toBe(false);
    expect(userAsks("Pay Anna's invoice.").change).toBe(true);
    // Written with the apostrophe alone, as a plural or a name in s writes it.
    expect(userAsks("Look into the customers' issue and tell me what they want.").change).toBe(false);
    // A possessive that ends its clause is followed by no noun of its own: the command after it still asks.
    for (const turn of ["Whose is it? It's Anna's. Schedule a call with her.", "If the invoice is Bob's, pay it.", 'The laptop is Anna’s; order a new charger for it.']) {
      expect(userAsks(turn).change, turn).toBe(true);
    }
  });
});

describe('verbUses: words that are nouns as often as verbs, where trusted text uses them as verbs', () => {
  it('keeps a word used as a verb and drops it after a determiner or a preposition', () => {
    expect(verbUses('Email Anna the slides, then post the link.')).toEqual(['email', 'post']);
    expect(verbUses('Translate the email from Herr Becker and check my schedule.')).toEqual([]);
    expect(verbUses('Summarise the post about the order.')).toEqual([]);
    expect(verbUses("Summarise Anna's email and Bob's post.")).toEqual([]);
    expect(verbUses("Let's email Anna.")).toEqual(['email']);
    expect(verbUses("Summarise James' email.")).toEqual([]);
    expect(verbUses("It is Anna's. Email her the slides.")).toEqual(['email']);
  });

  it('keeps the noun after "a" when a light verb makes an action of it', () => {
    expect(verbUses('Draft a reply to Priya and place an order for paper.')).toEqual(['reply', 'order']);
    expect(verbUses('Read a note from Bob.')).toEqual([]);
  });
});
