// vouched review: a little help on top of pages that read without it.
// - the list's filters apply as soon as one is chosen;
// - on an answer, "n" / "p" move to the next / previous finding, and a
//   finding's entry in the list and its words light up together; when the
//   pages take verdicts, "r" / "f" mark the focused finding right / a false
//   alarm, and selecting words fills the "missed mistake" form;
// - in the review queue, "j" / "k" move, "r" / "f" mark, Enter opens.
"use strict";
(function () {
  const form = document.querySelector("form.filters");
  if (form && document.body.dataset.page === "answers") {
    for (const select of form.querySelectorAll("select")) {
      select.addEventListener("change", () => form.requestSubmit());
    }
  }
  function typing(event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return true;
    const target = event.target;
    return target && /^(INPUT|SELECT|TEXTAREA|BUTTON)$/.test(target.tagName);
  }
  function mark(container, which) {
    const verdict = container && container.querySelector("form.verdict");
    const button = verdict && verdict.querySelector("button." + which);
    if (!button) return false;
    verdict.requestSubmit(button);
    return true;
  }

  // -- the review queue ---------------------------------------------------------
  const queued = Array.from(document.querySelectorAll("li.queued"));
  if (document.body.dataset.page === "queue") {
    let at = 0;
    function select(index) {
      if (index < 0 || index >= queued.length) return;
      queued[at].classList.remove("selected");
      at = index;
      queued[at].classList.add("selected");
      queued[at].focus();
      queued[at].scrollIntoView({ block: "nearest" });
    }
    if (queued.length) queued[0].focus();
    for (const [index, item] of queued.entries()) {
      item.addEventListener("focus", () => {
        queued[at].classList.remove("selected");
        at = index;
        item.classList.add("selected");
      });
    }
    document.addEventListener("keydown", (event) => {
      if (typing(event) || !queued.length) return;
      let done = true;
      if (event.key === "j") select(at + 1);
      else if (event.key === "k") select(at - 1);
      else if (event.key === "r") done = mark(queued[at], "right");
      else if (event.key === "f") done = mark(queued[at], "false-alarm");
      else if (event.key === "Enter") window.location.assign(queued[at].dataset.open);
      else done = false;
      if (done) event.preventDefault();
    });
    return;
  }

  // -- one answer: missed mistakes from a selection ---------------------------------
  for (const missed of document.querySelectorAll("form.missed")) {
    const text = document.getElementById(missed.dataset.text);
    if (!text) continue;
    document.addEventListener("selectionchange", () => {
      const chosen = document.getSelection();
      if (!chosen || chosen.isCollapsed || !chosen.rangeCount) return;
      const range = chosen.getRangeAt(0);
      if (!text.contains(range.startContainer) || !text.contains(range.endContainer)) return;
      const before = document.createRange();
      before.setStart(text, 0);
      before.setEnd(range.startContainer, range.startOffset);
      // Python counts code points, JavaScript UTF-16 units: count as Python does.
      const start = Array.from(before.toString()).length;
      const length = Array.from(range.toString()).length;
      missed.querySelector("input[name=start]").value = String(start);
      missed.querySelector("input[name=end]").value = String(start + length);
    });
  }

  // -- one answer: moving between findings, marking them ----------------------------
  const marks = Array.from(document.querySelectorAll("mark.finding[tabindex]"));
  if (!marks.length) return;
  function items(ids) {
    return ids.map((id) => document.getElementById(id.replace(/-f(\d+)$/, "-d$1"))).filter(Boolean);
  }
  function light(ids, on) {
    for (const item of items(ids)) item.classList.toggle("current", on);
  }
  for (const m of marks) {
    const ids = (m.dataset.findings || "").trim().split(/\s+/);
    m.addEventListener("focus", () => light(ids, true));
    m.addEventListener("blur", () => light(ids, false));
  }
  document.addEventListener("keydown", (event) => {
    if (typing(event)) return;
    const at = marks.indexOf(document.activeElement);
    if ((event.key === "r" || event.key === "f") && at >= 0) {
      const ids = (marks[at].dataset.findings || "").trim().split(/\s+/);
      if (mark(items(ids)[0], event.key === "r" ? "right" : "false-alarm")) event.preventDefault();
      return;
    }
    if (event.key !== "n" && event.key !== "p") return;
    let next = event.key === "n" ? at + 1 : at - 1;
    if (at < 0) next = event.key === "n" ? 0 : marks.length - 1;
    if (next < 0 || next >= marks.length) return;
    event.preventDefault();
    marks[next].focus();
    marks[next].scrollIntoView({ block: "nearest" });
  });
})();
