"""Stage lex: the text read as words and numbers, before any fact or lexicon is known.

The number reader (text in, quantities out: value, kind, unit, precision shown, span):

- ``_numbers``: ``read_numbers``, the one pass that yields them.
- ``_patterns``: the regular expressions for digits, times, dates and units.
- ``_numwords``: number words ("sixty-three", "a dozen"), ordinals, month names and the
  word tokens of a text.
- ``_units``: unit spellings and the kinds they measure.
- ``_quantities``: the ``Quantity`` value a stated number becomes.
- ``_skips``: what a digit is not, and what two numbers side by side are.
- ``_numforms``: the forms the digit reader leaves (``.99``, ``0x63``, ``XCIX °C``, ``½``).

The rest of the text's surface:

- ``_phrases``: phrase matchers (many whole-word phrases found in one pass).
- ``_splitter``: where sentences end (the scanner's, the stream's, the on-fail policy's).
- ``_quotes``: quoted spans and the sources they may come from.
- ``_textchecks``: placeholders, internal vocabulary, canned fallbacks.
- ``_spans``: a merged set of text spans, asked whether it overlaps a span.

The vocabulary, the one home of every word list:

- ``_english``: the English words the readers look for, as data.
- ``_vocabulary``: those words compiled once into the sets and patterns readers use.
- ``_timewords``: the time words the period reader understands.
- ``_abbreviations``: the abbreviations whose period ends no sentence (the splitter's).

Pure and stateless; nothing here knows about facts or lexicons.
"""
