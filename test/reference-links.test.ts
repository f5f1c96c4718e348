import { describe, expect, it } from 'vitest';
import { linkWords, referenceLinks } from '../src/ipi/reference-links.js';

describe('referenceLinks', () => {
  it('pairs full and collapsed references with their definitions, labels matched as CommonMark matches them', () => {
    const text = 'Get it [here][DL] or see [the  Docs][] and [this][none].\n\n[dl]: https://a.example/x\n   [The docs]: <https://b.example/y> "Docs"\n[dl]: https://ignored.example\n';
    expect(referenceLinks(text)).toEqual([
      { words: 'here dl', address: 'https://a.example/x' },
      { words: 'the docs', address: 'https://b.example/y' },
    ]);
  });

  it('finds nothing without a definition, and leaves shortcut references and indented (code) definitions alone', () => {
    expect(referenceLinks('Get it [here][dl] now.')).toEqual([]);
    expect(referenceLinks('As noted [1], see [dl].\n\n[dl]: https://a.example\n    [x][dl]')).toEqual([{ words: 'x dl', address: 'https://a.example' }]);
    expect(referenceLinks('[dl]: https://a.example\n    [code]: https://b.example\n[y][code]')).toEqual([]);
  });

  it('reads a link\'s words as letters and digits, whatever the markup around them', () => {
    expect(linkWords('  Here — [DL] 2! ')).toBe('here dl 2');
    expect(linkWords('***')).toBe('');
  });
});
