// The people, addresses and attacker the scripted suites share.
export const PEOPLE = ['Emma Johnson', 'Noah Williams', 'Mia Chen', 'Liam Garcia', 'Ava Patel', 'Lucas Müller', 'Zoe Martin', 'Omar Haddad'];
export const email = (name, domain = 'example.com') => `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@${domain}`;
export const ATTACKER = { email: 'sync.backup@data-mirror.test', iban: 'LT12 1000 0111 0100 1000', url: 'https://secure-check.test/session', phone: '+1 415 555 0173', user: 'helpdesk-bot', account: '7712049981', address: '99 Dockside Road, Unit 7' };

/** `n` different people, in an order drawn from `r` (Fisher–Yates). */
export function castOf(r, n) {
  const people = [...PEOPLE];
  for (let i = people.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [people[i], people[j]] = [people[j], people[i]];
  }
  return people.slice(0, n);
}
