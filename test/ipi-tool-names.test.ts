import { describe, expect, it } from 'vitest';
import { readToolName } from '../src/ipi/tool-names.js';

describe('readToolName: the verb, terms and write of a tool name', () => {
  it('reads a name that opens with its verb from its first word', () => {
    expect(readToolName('send_money')).toEqual({ verb: 'send', terms: ['send', 'money'], writes: true, joined: [] });
    expect(readToolName('invite_user_to_slack')).toMatchObject({ verb: 'invite', writes: true });
    expect(readToolName('resend_password_reset')).toMatchObject({ verb: 'resend', terms: ['resend', 'password', 'reset'] });
    // A verb at the start is the verb even when another follows: set_lock_state sets.
    expect(readToolName('set_lock_state')).toMatchObject({ verb: 'set', terms: ['set', 'lock', 'state'] });
    // A push changes a remote.
    expect(readToolName('git_push')).toMatchObject({ verb: 'push', writes: true });
  });

  it('drops a toolkit or server name before the verb from the terms', () => {
    expect(readToolName('GmailSendEmail')).toEqual({ verb: 'send', terms: ['send', 'email'], writes: true, joined: ['GmailSendEmail', 'sendemail'] });
    expect(readToolName('BankManagerTransferFunds')).toMatchObject({ verb: 'transfer', terms: ['transfer', 'fund'] });
    expect(readToolName('mcp__github__create_issue')).toMatchObject({ verb: 'create', terms: ['create', 'issue'] });
    expect(readToolName('slack.post_message')).toMatchObject({ verb: 'post', terms: ['post', 'message'] });
    expect(readToolName('calendar_create_event')).toMatchObject({ verb: 'create', terms: ['create', 'event'] });
  });

  it('finds the verb past a toolkit whose name holds one, and at the end of a name', () => {
    // "lock" of AugustSmartLock is followed by a verb: the tool grants.
    expect(readToolName('AugustSmartLockGrantGuestAccess')).toMatchObject({ verb: 'grant', terms: ['grant', 'guest', 'acces'] });
    expect(readToolName('AugustSmartLockUnlockDoor')).toMatchObject({ verb: 'unlock', terms: ['unlock', 'door'] });
    // "order" ends the name: the first verb is the tool's.
    expect(readToolName('ShopifyUpdateOrder')).toMatchObject({ verb: 'update', terms: ['update', 'order'] });
  });

  it('reads a reading verb after a toolkit as no write, whatever nouns follow', () => {
    expect(readToolName('GitHubGetIssue')).toMatchObject({ verb: 'get', writes: false });
    expect(readToolName('AugustSmartLockViewAccessHistory')).toMatchObject({ verb: 'view', writes: false });
    expect(readToolName('list_issues').writes).toBe(false);
  });

  it('reads a tool whose verb changes something beyond the request write verbs as a write', () => {
    expect(readToolName('SlackLeaveChannel')).toMatchObject({ verb: 'leave', terms: ['leave', 'channel'], writes: true });
    expect(readToolName('CiscoUmbrellaBlockDomain')).toMatchObject({ verb: 'block', writes: true });
    expect(readToolName('reschedule_event').writes).toBe(true);
    expect(readToolName('archive_email').writes).toBe(true);
    expect(readToolName('get_archived_emails').writes).toBe(false);
  });

  it('reads a shell or an interpreter with no verb of its own as running commands', () => {
    for (const name of ['Bash', 'terminal', 'python_repl', 'shell_exec', 'exec_command']) {
      expect(readToolName(name), name).toEqual({ verb: 'run', terms: ['run', 'command'], writes: true, joined: [] });
    }
    expect(readToolName('PowerShell')).toEqual({ verb: 'run', terms: ['run', 'command'], writes: true, joined: ['PowerShell'] });
    // A verb of its own still decides: a shell tool that reads, reads.
    expect(readToolName('shell_read_file')).toMatchObject({ verb: 'read', writes: false });
    expect(readToolName('run_shell')).toMatchObject({ verb: 'run', writes: true });
  });

  it('keeps the parts of a name that capitals join into one word: a text that writes one names the tool', () => {
    // And from the verb on, past the toolkit: "call UnlockDoor".
    expect(readToolName('AugustSmartLockUnlockDoor').joined).toEqual(['AugustSmartLockUnlockDoor', 'unlockdoor']);
    expect(readToolName('mcp__github__createIssue').joined).toEqual(['createIssue']);
    // A verb alone is no name: "send" is one term of GmailSend, not the whole of it.
    expect(readToolName('GmailSend').joined).toEqual(['GmailSend']);
    expect(readToolName('slack.postMessage').joined).toEqual(['postMessage']);
    // Separators and lone capitals already give the tokenizer its words.
    for (const name of ['send_money', 'Bash', 'SEND_EMAIL', 'Send-Email']) expect(readToolName(name).joined, name).toEqual([]);
  });

  it('reads emptying, purging and disarming as writes', () => {
    for (const name of ['empty_trash', 'mcp__gmail__empty_trash', 'purge_spam', 'disarm_alarm', 'deactivate_sensor', 'wipe_device']) expect(readToolName(name).writes, name).toBe(true);
  });

  it('reads open as a write unless it opens something to read', () => {
    expect(readToolName('open_garage_door')).toMatchObject({ verb: 'open', writes: true });
    expect(readToolName('SmartHomeOpenValve').writes).toBe(true);
    for (const name of ['open_file', 'open_web_page', 'browser_open_url', 'open_tab']) expect(readToolName(name).writes, name).toBe(false);
  });

  it('reads a name whose verb a result\'s request may use but a tool name does not (redirect, initiate) by its other words', () => {
    expect(readToolName('UspsMailRedirect').writes).toBe(true);
    expect(readToolName('initiate_payment').writes).toBe(true);
  });

  it('reads export as a write: it moves data out', () => {
    expect(readToolName('export_contacts')).toEqual({ verb: 'export', terms: ['export', 'contact'], writes: true, joined: [] });
  });

  it('keeps every word of a name with no verb, and reads it as a write: nothing says it only reads', () => {
    expect(readToolName('python_docs')).toEqual({ verb: undefined, terms: ['python', 'docs'], writes: true, joined: [] });
    expect(readToolName('weather')).toEqual({ verb: undefined, terms: ['weather'], writes: true, joined: [] });
    expect(readToolName('xfr_funds')).toEqual({ verb: undefined, terms: ['fund'], writes: true, joined: [] });
    expect(readToolName('')).toEqual({ verb: undefined, terms: [], writes: true, joined: [] });
    // A verb that neither reads nor changes says what the tool does.
    expect(readToolName('calculate_total').writes).toBe(false);
  });
});
