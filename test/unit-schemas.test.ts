// Schemas from outside, in-process: each compiles in its own dialect, a broken one is explained, and
// its patterns run on RE2 (right answers, linear time, unsupported syntax named).
import t from 'tap';
import { compileSchema } from '../src/util/schema.js';

t.test('input schemas compile in their own dialect; broken ones are explained', async (t) => {
  t.equal(compileSchema({ type: 'object' }).dialect, '2020-12');
  t.equal(compileSchema({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' }).dialect, 'draft-07');
  t.match(compileSchema({ type: 'objekt' }).problem, /must be equal to one of the allowed values|schema is invalid/);
  t.match(compileSchema(null).problem, /must be an object, got null/);
  const { validate } = compileSchema({ $id: 'same', type: 'object', required: ['a'] });
  t.notOk(validate!({}));
  t.ok(compileSchema({ $id: 'same', type: 'object' }).validate, 'a reused $id does not clash');
});

t.test('patterns from outside run on RE2: right answers, linear time, unsupported syntax named', async (t) => {
  const { compileSchema, quickValidate, unappliedPatterns } = await import('../src/util/schema.js');
  const { safeRegExp, isUnsupportedPattern } = await import('../src/util/safe-regexp.js');
  const evil = `${'a'.repeat(5000)}!`;
  const started = performance.now();
  t.equal(safeRegExp('^(a+)+$').test(evil), false, 'the catastrophic pattern answers (and says no)');
  t.equal(safeRegExp('^(a+)+$').test('aaaa'), true);
  t.ok(performance.now() - started < 5000, 'without backtracking (a hang guard, not a timing test)');
  t.equal(safeRegExp('^\\u00e9$').test('é'), true, 'JavaScript escapes are translated');
  t.ok(isUnsupportedPattern('(?=x)'), 'lookahead has no linear-time form');
  t.notOk(isUnsupportedPattern('^note-[0-9]{1,9}$'));

  // Patterns that cannot backtrack much run natively (no RE2 to load); the rest, and long values, on RE2.
  const { backtracksLittle } = await import('../src/util/safe-regexp.js');
  for (const safe of ['^note-[0-9]{1,9}$', '^[a-z]+$', '^\\d{4}-\\d{2}-\\d{2}$', 'abc', '^[\\w.-]{1,64}@x\\.org$'])
    t.ok(backtracksLittle(safe), `${safe} backtracks little`);
  for (const risky of ['^(a+)+$', '^a*a*$', '^\\d+\\d+x$', 'a|b', '(x)\\1', '(?=x)', '^\\p{L}+$', '[a]+[b]?'])
    t.notOk(backtracksLittle(risky), `${risky} goes to RE2`);
  const evilOneQuantifier = `${'a'.repeat(200_000)}!`;
  const long = performance.now();
  t.equal(safeRegExp('a*b').test(evilOneQuantifier), false, 'a long value runs on RE2 even for a native pattern');
  t.ok(performance.now() - long < 5000, 'in linear time (a hang guard, not a timing test)');
  t.equal(safeRegExp('^note-[0-9]{1,9}$').test('note-12'), true);
  t.equal(safeRegExp('^note-[0-9]{1,9}$').test('note-1234567890'), false);
  t.equal(safeRegExp('^[a-z]+$').test('ABC'), false);

  // ajv keys compiled patterns by their text: two patterns must not share one engine object.
  const two = compileSchema({
    type: 'object',
    properties: { a: { type: 'string', pattern: '^a$' }, b: { type: 'string', pattern: '^b$' } },
  });
  t.equal(two.validate!({ a: 'a', b: 'b' }), true);
  t.equal(two.validate!({ a: 'b', b: 'a' }), false);
  t.same(quickValidate({ type: 'object', properties: { x: { type: 'string', pattern: '^(a+)+$' } } }, { x: evil }), [
    '/x: must match pattern "^(a+)+$"',
  ]);
  t.same(
    unappliedPatterns({
      properties: { a: { pattern: '(a)\\1' }, b: { pattern: '^ok$' } },
      patternProperties: { '^(?!x)': {} },
    }).sort(),
    ['(a)\\1', '^(?!x)'].sort(),
  );
});
