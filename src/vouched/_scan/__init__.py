"""Stage 4 of the flow: the scanner, which reads the model's text for anything it added.

Takes the phrased text, the grounded facts (a ``GateResult`` or facts), an
optional ``Lexicon``, source texts, the question and the ``Policy``; returns a
frozen ``ScanReport`` of ``Finding``\\ s, each with a kind code and a span.
Pure: no clock, file or network.

The text flows one way through four stage folders, each named in its ``__init__``:

- ``_lex/``: the number reader, phrases, sentences, quotes, text checks, and the
  vocabulary (the one home of every word list).
- ``_facts/``: the fact index, fact readings, period views, the ``Lexicon`` and the
  parsers of its sections; built once when a scanner compiles.
- ``_read/``: per sentence, its mentions, cues, subjects, structures, derived values,
  time expressions and the binding of every stated quantity.
- ``_rules/``: every decision that makes a finding, one ordered registry of typed rules
  in families, each declaring its kinds.

Beside them:

- ``_compiled``: what a scanner compiles once from its inputs (``Compiled``).
- ``_judge``: the conductor, reading one text sentence by sentence with what was
  compiled once (``TextReading``), the rule families in the registry's order.
- ``_findings``: finding kinds, findings and ``once_per_span``, the one overlap policy.
- ``_inputs``: what a caller may pass for a lexicon and an instant.
- ``_scanner``, ``_stream``: the faces, ``Scanner`` / ``scan`` and ``StreamScanner``.

Seams: the lexicon, the policy (exact attributes) and ``now`` (when the text is
read: it tells a later occasion from the facts' own), passed as values.
"""
