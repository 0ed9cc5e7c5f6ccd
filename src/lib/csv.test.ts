import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, csvSeparatorFor } from './csv';

describe('csvField', () => {
  it('quotes a field with a separator, a quote or a line break, doubling quotes (RFC 4180)', () => {
    expect(csvField('NAV-1')).toBe('NAV-1');
    expect(csvField('NAV,1')).toBe('"NAV,1"');
    expect(csvField('Kein "Gerät"')).toBe('"Kein ""Gerät"""');
    expect(csvField('two\nlines')).toBe('"two\nlines"');
  });

  it('turns text a spreadsheet would run as a formula into text (= + - @, tab, carriage return)', () => {
    expect(csvField('=HYPERLINK("http://evil.example","NAV")')).toBe(`"'=HYPERLINK(""http://evil.example"",""NAV"")"`);
    expect(csvField('+1+1')).toBe("'+1+1");
    expect(csvField('-2+3')).toBe("'-2+3");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('\t=1')).toBe("'\t=1");
    expect(csvField('\r=1')).toBe(`"'\r=1"`);
    expect(csvField('NAV=1')).toBe('NAV=1');
  });

  it('writes numbers as they are, a negative one included', () => {
    expect(csvField(12)).toBe('12');
    expect(csvField(-3)).toBe('-3');
  });
});

describe('csvDocument', () => {
  it('starts with a byte order mark and ends every line with CRLF', () => {
    expect(csvDocument([['a', 1], ['b', 2]])).toBe('\uFEFFa,1\r\nb,2\r\n');
  });
});

describe('the separator', () => {
  it('is the one the reader’s spreadsheet expects: ; for German, , for English', () => {
    expect(csvSeparatorFor('de')).toBe(';');
    expect(csvSeparatorFor('en')).toBe(',');
    expect(csvDocument([['Gerät', 'a;b', 1.5]], ';')).toBe('\uFEFFGerät;"a;b";1.5\r\n');
    expect(csvDocument([['Device', 'a;b']], ',')).toBe('\uFEFFDevice,"a;b"\r\n');
  });
});
