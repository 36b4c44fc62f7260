"""Stage 4 of the flow: the scanner, which reads the model's text for anything it added.

Takes the phrased text, the grounded facts (a ``GateResult`` or facts), an
optional ``Lexicon``, source texts, the question and the ``Policy``; returns a
frozen ``ScanReport`` of ``Finding``\\ s, each with a kind code and a span.
Pure: no clock, file or network.

- ``_scanner``: ``scan``, the report and finding types, the order of the checks.
- ``_reader/``: the number reader (patterns, number words, quantities, units).
- ``_lexicon``: the ``Lexicon``: attribute cues, subject aliases, internal terms.
- ``_factindex``: the grounded facts indexed for vouching a stated number.
- ``_binding``: which (subject, attribute) each stated number speaks about.
- ``_rules/``: every decision that makes a finding, one ordered registry of typed rules
  in families (text, quote, duration, quantity, revision, clause, words, explanation,
  echo), each declaring its kinds; ``_findings.once_per_span`` is the one overlap policy.
- ``_wordmatch``, ``_words``: facts stated in words (weekdays, value words,
  comparisons, superlatives, thresholds; ``_relations`` reads their lexicon sections).
- ``_textchecks``: finds placeholders, internal vocabulary, canned fallbacks (the text
  rules decide); ``_quotes``: quoted spans and the sources they may come from.

Seams: the lexicon, the policy (exact attributes) and ``now`` (when the text is
read: it tells a later occasion from the facts' own), passed as values.
"""
