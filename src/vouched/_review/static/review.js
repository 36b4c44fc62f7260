// vouched review: a little help on top of pages that read without it.
// - the list's filters apply as soon as one is chosen;
// - on an answer, "n" / "p" move to the next / previous finding, and a
//   finding's entry in the list and its words light up together.
"use strict";
(function () {
  const form = document.querySelector("form.filters");
  if (form && document.body.dataset.page === "answers") {
    for (const select of form.querySelectorAll("select")) {
      select.addEventListener("change", () => form.requestSubmit());
    }
  }
  const marks = Array.from(document.querySelectorAll("mark.finding[tabindex]"));
  if (!marks.length) return;
  function light(ids, on) {
    for (const id of ids) {
      const item = document.getElementById(id.replace(/-f(\d+)$/, "-d$1"));
      if (item) item.classList.toggle("current", on);
    }
  }
  for (const mark of marks) {
    const ids = (mark.dataset.findings || "").trim().split(/\s+/);
    mark.addEventListener("focus", () => light(ids, true));
    mark.addEventListener("blur", () => light(ids, false));
  }
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return;
    if (event.key !== "n" && event.key !== "p") return;
    const at = marks.indexOf(document.activeElement);
    let next = event.key === "n" ? at + 1 : at - 1;
    if (at < 0) next = event.key === "n" ? 0 : marks.length - 1;
    if (next < 0 || next >= marks.length) return;
    event.preventDefault();
    marks[next].focus();
    marks[next].scrollIntoView({ block: "nearest" });
  });
})();
