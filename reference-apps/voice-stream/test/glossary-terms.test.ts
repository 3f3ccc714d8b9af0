import test from 'ava';
import { parseGlossaryEntries } from '../src/domain/glossary/glossary-entries';
import { protectTerms } from '../src/domain/glossary/term-protection';

const EN_ES = { sourceLang: 'en', targetLang: 'es' };

test('TSV and CSV entries parse as DeepL defines them (CRLF, empty lines, quotes, language columns)', (t) => {
  t.deepEqual(parseGlossaryEntries('report\tmemoria\r\n\r\nmeeting\tjunta\n', 'tsv', EN_ES), {
    entries: [
      { source: 'report', target: 'memoria' },
      { source: 'meeting', target: 'junta' },
    ],
  });
  t.deepEqual(
    parseGlossaryEntries(
      '"Smith, Jones and Co","Smith, Jones y Cía"\n"say ""hi""",saludar\nhotel,hostal,en,fr\nbus,autobús,EN,ES',
      'csv',
      EN_ES,
    ),
    {
      entries: [
        { source: 'Smith, Jones and Co', target: 'Smith, Jones y Cía' },
        { source: 'say "hi"', target: 'saludar' },
        // The en-fr line is another pair's: skipped.
        { source: 'bus', target: 'autobús' },
      ],
    },
  );
});

test("entries that break DeepL's content rules are refused, naming the line and the rule", (t) => {
  const problem = (text: string, format: 'tsv' | 'csv' = 'tsv') => {
    const parsed = parseGlossaryEntries(text, format, EN_ES);
    return 'problem' in parsed ? parsed.problem : 'accepted';
  };
  t.is(problem('report\tmemoria\nreport\tinforme'), 'line 2: the source phrase "report" duplicates line 1');
  t.is(problem('report\t'), 'line 1: the target phrase is empty');
  t.is(problem('\tmemoria'), 'line 1: the source phrase is empty');
  t.is(problem('report\tmemo\u0085ria'), 'line 1: the target phrase contains a control character or line separator');
  t.is(problem(' report\tmemoria'), 'line 1: the source phrase has leading or trailing whitespace');
  t.is(problem('report\tmemoria\u3000'), 'line 1: the target phrase has leading or trailing whitespace');
  t.is(problem(`${'é'.repeat(513)}\tx`), 'line 1: the source phrase is longer than 1024 UTF-8 bytes');
  t.is(problem(`${'é'.repeat(512)}\tx`), 'accepted');
  t.is(
    problem('one\ttwo\tthree'),
    'line 1: expected a source and a target phrase separated by a tab, found 3 field(s)',
  );
  t.is(problem('report memoria'), 'line 1: expected a source and a target phrase separated by a tab, found 1 field(s)');
  t.is(problem('"report,memoria', 'csv'), 'line 1: a quoted field is not closed, or has text after its closing quote');
  t.is(
    problem('"report"x,memoria', 'csv'),
    'line 1: a quoted field is not closed, or has text after its closing quote',
  );
  t.is(problem('\n\n'), 'the dictionary has no entries');
  t.is(problem('hotel,hostal,en,fr', 'csv'), 'the dictionary has no entries');
});

test('glossary phrases are protected as whole words, case-insensitively, the longest first, and restored as written', (t) => {
  const entries = [
    { source: 'New York', target: 'Nueva York' },
    { source: 'New York City', target: 'NYC' },
    { source: 'cat', target: 'gato' },
  ];
  const sentence = protectTerms('I love new york city and NEW YORK, but not the catalogue or a cat.', entries);
  t.false(/york|cat\b/i.test(sentence.text), sentence.text);
  t.regex(sentence.text, /catalogue/, 'a phrase inside a longer word is left alone');
  // What a translator would give back: the placeholders in place, the rest translated.
  const translated = sentence.text
    .replace('I love', 'Me encanta')
    .replace('but not the catalogue or a', 'pero no el catálogo ni un');
  t.is(sentence.restore(translated), 'Me encanta NYC and Nueva York, pero no el catálogo ni un gato.');
  // Nothing to protect: the text and the translation are left as they are.
  const plain = protectTerms('Nothing here.', entries);
  t.is(plain.text, 'Nothing here.');
  t.is(plain.restore('Nada aquí.'), 'Nada aquí.');
});
