import { describe, expect, it } from 'vitest';
import { isSameName, nameForms } from './same-name';

describe('the same name', () => {
  it('ignores case and surrounding or repeated whitespace', () => {
    expect(isSameName('Maria', ' MARIA ')).toBe(true);
    expect(isSameName('Anna Lena', 'anna   lena')).toBe(true);
    expect(isSameName('Schneider', 'schneider\t')).toBe(true);
  });

  it('ignores accents, whether typed composed or as a letter with a combining mark', () => {
    expect(isSameName('María', 'Maria')).toBe(true);
    expect(isSameName('Günter', 'Gu\u0308nter')).toBe(true);
    expect(isSameName('Ćosić', 'cosic')).toBe(true);
    expect(isSameName('Schäfer', 'Schafer')).toBe(true);
  });

  it('takes an umlaut written out and ß written as ss for the same letter', () => {
    expect(isSameName('Schäfer', 'Schaefer')).toBe(true);
    expect(isSameName('Müller', 'MUELLER')).toBe(true);
    expect(isSameName('Strauß', 'Strauss')).toBe(true);
    expect(isSameName('STRAUẞ', 'strauss')).toBe(true);
  });

  it('keeps different names apart', () => {
    expect(isSameName('Maria', 'Marie')).toBe(false);
    expect(isSameName('Mueller', 'Muller')).toBe(false);
    expect(isSameName('Schneider', 'Schneider-Lang')).toBe(false);
    expect(isSameName('Anna Lena', 'Annalena')).toBe(false);
    expect(isSameName('Søren', 'Soren')).toBe(false);
  });

  it('gives both forms of a name', () => {
    expect(nameForms(' Jürgen  Groß ')).toEqual({ plain: 'jurgen gross', spelledOut: 'juergen gross' });
  });
});
