"""Stages 3 and 5 of the flow: the phrase-only prompt, the phraser, on-fail, the answer.

Takes a question, a query and sources (the ``Grounder``), or grounded facts
and silences (``build_prompt``); returns an ``Answer`` (text, status, facts,
silences, findings) and writes a snapshot when given a store.

- ``_prompt``: ``build_prompt``: the versioned, phrase-only prompt.
- ``_phrasers``: ``Phraser`` protocol, ``TemplatePhraser`` (offline) and ``OpenAIChatPhraser``.
- ``_wires``: the HTTP under ``OpenAIChatPhraser``: httpx (default) or aiohttp (serve's).
- ``_onfail``: ``OnFail``: retry once with the findings quoted, partial, or refuse.
- ``_result``: the ``Answer`` value and its status codes.
- ``_gathering``: the queries, the sources' facts (one span per source when
  traced) and the silences an answer states.
- ``_grounder``: the ``Grounder``, which runs the whole flow for one answer.
- ``_machine``: the pure on-fail machine (plan + attempt outcome -> next action),
  answer modes (enforce, audit) and the guard-error policy.
- ``_checks``: what checks one answer's texts (scanner, caller numbers, extra checks).
- ``_phrasing``: the one loop over the model's attempts (read whole or
  streamed) and the one builder of ``Answer``.
- ``_events``: the streamed answer's events.
- ``_upstream``: a phraser's failure as codes and the HTTP status a gateway answers.
- ``_prometheus``: an answer observer exporting counters (``vouched[prometheus]``).
- ``_tracing``: the tracing seam and ``OpenTelemetryTracing`` (``vouched[otel]``).

Seams: the sources, the phraser, the clock, the policy, the lexicon, the
store, the observers and the tracing, each a constructor parameter of ``Grounder``.
"""
