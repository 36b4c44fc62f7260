"""Stage facts: what the scanner compiles once from its facts and lexicon.

- ``_factreadings``: a fact read as the quantities it vouches for.
- ``_attributenames``: an attribute as a reader names it in a finding's detail.
- ``_factindex``: every fact's readings, indexed for vouching a stated quantity.
- ``_periodviews``: the facts visible to a sentence by the time it speaks of.
- ``_wordmatch``: what facts stated in words look like (weekdays, value words).
- ``_shortnames``: a person's surname or given name alone, as a name of that subject.
- ``_lexicon``: the ``Lexicon``: attribute cues, subject aliases, internal terms, and
  its sections, each parsed by its own module:
- ``_lexrelations``: comparisons, superlatives and thresholds declared per phrase.
- ``_counts``: counts over a subject's group meeting a threshold.
- ``_gameparts``: the parts of an occasion a relation speaks of ("in the second half").
- ``_conditions``: weather condition words stated for a period, and their judge.
- ``_extremes``: when an extreme happens ("the coldest day"), and its judge.
- ``_commonquantities``: quantities any text may name that a lexicon may not list (the
  UV index, fouls, a market cap), as data: the cues of attributes no fact states.
"""
