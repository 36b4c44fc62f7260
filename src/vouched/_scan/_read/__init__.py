"""Stage read: one sentence read once, each stated quantity bound to what it speaks about.

- ``_mentions``: the mentions of one text (subjects, pronouns, clause boundaries).
- ``_sentence``: one sentence's mentions, read once and frozen (``SentenceRead``).
- ``_cues``: which attribute a quantity states (the cue that governs it).
- ``_subjects``: which subjects a quantity may speak about.
- ``_structures``: what spans several quantities (runs, pairs, lists, count words).
- ``_values``: the frozen values this stage produces (``Structures``, ``Binding``,
  ``Evidence``, ``Timed``).
- ``_derived``: values a reader computes (signs, bounds, differences, sums).
- ``_binding``: each quantity's readings with their costs, and its binding.
- ``_wordreading``: who a word that states a fact speaks about, and whether it is stated.
- ``_times``: time expressions resolved to periods of the place's local time.
- ``_evidence``: the sentence read once and frozen (``Evidence``: the reading, the
  structures, the masks, the durations set apart, the claims bound, the words that
  state facts), what the rules read; with periods, each claim and word bound on the
  view of the period that governs its stretch (``read_in_time``); a batch of
  sentences read at once (``read_batch``), the ``Reader`` and what a sentence hands on.
"""
