"""The number reader: text in, quantities out (value, kind, unit, precision shown, span).

- ``_patterns``: the regular expressions for digits, times, dates and units.
- ``_words``: number words ("sixty-three", "a dozen") and the words around numbers.
- ``_units``: unit spellings and the kinds they measure.
- ``_quantity``: the ``Quantity`` value a stated number becomes.
- ``_numbers``: ``read_numbers``, the one pass that yields them.

Pure and stateless; nothing here knows about facts or lexicons.
"""
