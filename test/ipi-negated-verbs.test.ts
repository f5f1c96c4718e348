import { describe, expect, it } from 'vitest';
import { withoutNegatedVerbs } from '../src/ipi/negated-verbs.js';
import { userAsks, verbUses } from '../src/ipi/user-asks.js';

describe('withoutNegatedVerbs: what a turn forbids is none of what it asks for', () => {
  it.each([
    ["Fetch this week's reviews and draft (don't post) replies.", "Fetch this week's reviews and draft (don't \u2014) replies."],
    ['Never delete anything in /srv.', 'Never \u2014 anything in /srv.'],
    ['Do not reply or forward it, just summarise.', 'Do not \u2014 or \u2014 it, just summarise.'],
    // "Don't just X" asks for X and more: only "just" goes. A noun-verb after the forbidden verb goes with it.
    ["Don't just delete it, report it.", "Don't \u2014 delete it, report it."],
    ['Dont ever pay it.', 'Dont \u2014 \u2014 it.'],
    ['Do not send email to anyone.', 'Do not \u2014 \u2014 to anyone.'],
    // A clause that scopes the action forbids only part of it.
    ["Don't reply to all; only Anna needs an answer.", "Don't reply to all; only Anna needs an answer."],
    ["Don't pay more than 300 euros for it.", "Don't pay more than 300 euros for it."],
    ["Don't email anyone except Bob.", "Don't email anyone except Bob."],
    // Words that only look like a scope forbid it outright.
    ["Don't post any more comments.", "Don't \u2014 any more comments."],
    ['Never post comments on our account again.', 'Never \u2014 comments on our account again.'],
    ["Don't post comments under any circumstances.", "Don't \u2014 comments under any circumstances."],
    ["Don't delete any emails but flag the spam.", "Don't \u2014 any emails but flag the spam."],
    ["Don't delete anything as I still need all of it.", "Don't \u2014 anything as I still need all of it."],
    ["Don't send it until I've checked it.", "Don't \u2014 it until I've checked it."],
    // The verb after "don't forget to" is still asked for.
    ["Don't forget to send the report.", "Don't \u2014 to send the report."],
    ['Email Anna the slides.', 'Email Anna the slides.'],
    // A verb whose object is none asks for nothing; "nothing but", a bound or a number's "no." ask for it.
    ['Delete nothing; just list the old files.', '\u2014 nothing; just list the old files.'],
    ['Send nothing to anyone, forward no emails and share it with no one.', '\u2014 nothing to anyone, \u2014 no emails and \u2014 it with no one.'],
    ['Reply to nobody.', '\u2014 to nobody.'],
    // "no" after "it" or "with" says how, not that nothing is to be done.
    ['Deploy it with no downtime.', 'Deploy it with no downtime.'],
    ['Approve it with no changes.', 'Approve it with no changes.'],
    ['Delete nothing but the drafts.', 'Delete nothing but the drafts.'],
    ['Email no one else but Anna.', 'Email no one else but Anna.'],
    ['Email no one except Bob.', 'Email no one except Bob.'],
    ['Send no more than 3 emails.', 'Send no more than 3 emails.'],
    ['Reply no later than Friday.', 'Reply no later than Friday.'],
    ['Pay invoice no. 4471.', 'Pay invoice no. 4471.'],
    ['Confirm that nobody objected, then book it.', 'Confirm that nobody objected, then book it.'],
    ['Pay no attention to the banner and pay the invoice.', '\u2014 no attention to the banner and pay the invoice.'],
    ['There is nothing to send.', 'There is nothing to send.'],
  ])('reads %s as %s', (text, read) => expect(withoutNegatedVerbs(text)).toBe(read));

  it('reads a long line of negations without a clause\'s end in linear time', () => {
    // Each negation reading the whole rest of the line for its scope cost the line's length squared.
    for (const text of ['never a '.repeat(1 << 15), "don't x ".repeat(1 << 15), 'do not send email '.repeat(1 << 14), 'send nothing '.repeat(1 << 15), 'send no '.repeat(1 << 15)]) {
      const started = performance.now();
      withoutNegatedVerbs(text);
      expect(performance.now() - started).toBeLessThan(2_000);
    }
  });

  it('leaves the verb the turn asks for elsewhere', () => {
    const read = withoutNegatedVerbs("Don't post it now. Draft it first, then post it at noon.");
    expect(verbUses(read)).toEqual(['post']);
    expect(userAsks(read).change).toBe(true);
    expect(userAsks(withoutNegatedVerbs("Summarise the thread, don't reply to anyone.")).change).toBe(false);
    expect(userAsks("Summarise the thread, don't reply to anyone.").change).toBe(true);
    // "do" is left before "not" and asks for nothing; "delete nothing" forbids as "don't delete" does.
    expect(userAsks(withoutNegatedVerbs('List the old files; do not delete anything.')).change).toBe(false);
    expect(userAsks(withoutNegatedVerbs('List the old files; delete nothing.')).change).toBe(false);
    expect(userAsks(withoutNegatedVerbs('List the old files; delete nothing but the drafts.')).change).toBe(true);
  });
});
