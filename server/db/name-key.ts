// A search term folded as the database folds patient names (migration 0019: patient_name_key and
// patient_name_key_expanded), so that "Weiss", "schae" and "Ozdemir" find Weiß, Schäfer and Özdemir.

const ACCENTED = 'àáâãåāăçćčďèéêëēėęěğìíîïīıłñńňòóôõøōřśšşťùúûūůűýÿźżžÀÁÂÃÅĀĂÇĆČĎÈÉÊËĒĖĘĚĞÌÍÎÏĪIŁÑŃŇÒÓÔÕØŌŘŚŠŞŤÙÚÛŪŮŰÝŸŹŻŽ';
const PLAIN = 'aaaaaaacccdeeeeeeeegiiiiiilnnnoooooorssstuuuuuuyyzzzaaaaaaacccdeeeeeeeegiiiiiilnnnoooooorssstuuuuuuyyzzz';
const PLAIN_OF = new Map([...ACCENTED].map((letter, index) => [letter, PLAIN[index]]));

const UMLAUT_BASE: Record<string, string> = { ä: 'a', ö: 'o', ü: 'u' };

const withoutAccents = (text: string) => [...text].map((letter) => PLAIN_OF.get(letter) ?? letter).join('');

/** Lower case, ä ö ü as a o u, other accents dropped, ß as ss (DIN 5007-1). */
export const nameKey = (text: string) => withoutAccents(text.replace(/[äöüÄÖÜ]/g, (umlaut) => UMLAUT_BASE[umlaut.toLowerCase()])).toLowerCase().replaceAll('ß', 'ss');

/** The same with ä ö ü written ae oe ue (DIN 5007-2). */
export const nameKeyExpanded = (text: string) => withoutAccents(text.replace(/[äöüÄÖÜ]/g, (umlaut) => `${UMLAUT_BASE[umlaut.toLowerCase()]}e`)).toLowerCase().replaceAll('ß', 'ss');
