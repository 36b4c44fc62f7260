"""The review pages: a web view over the snapshot store, and reviewers' verdicts.

``vouched review STORE`` serves them; ``vouched serve`` mounts them under
``/review`` when ``[answer] store`` is set. Server-rendered (Starlette and
Jinja2, the ``server`` extra), every asset served by the package itself.

- ``_index``: one summary row per snapshot, the filters, the day and
  prompt-version tallies; follows the store as it grows.
- ``_spans``: findings placed on the words of the text they were found in.
- ``_charts``: rates as inline SVG, coloured by the stylesheet.
- ``_answer``: one answer as the page shows it.
- ``_replaying``: a sample graded under another rule version, before and after.
- ``_verdicting``: a reviewer's verdict taken: the session, its CSRF token, the form.
- ``_precision``: verdicts counted per rule, kind, day and prompt version.
- ``_queue``, ``_prompts``: a queued finding in its sentence; prompt versions' words.
- ``_render``: the Jinja2 templates and their filters.
- ``_guard``: Host allowlist, token, methods (POST only from the pages), headers.
- ``_app``: the routes and templates (``templates/``, ``static/``).
"""

from vouched._review._app import create_review_app

__all__ = ["create_review_app"]
