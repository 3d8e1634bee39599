// What a widget says before it is touched, and the one question it asks: a lesson line, and a
// question with answer buttons whose feedback quotes the widget's own numbers.
import { htmlEl, typeset, announcer } from "./common.js";

// The lesson (one sentence, typeset) above the drawing.
export function lesson(root, text) {
  const node = htmlEl("p", { class: "rope-w-lesson", "data-lesson": "" }, null);
  typeset(node, text);
  const body = root.querySelector(".rope-w-body");
  root.insertBefore(node, body);
  return node;
}

// A question asked before the widget tells. The reader first commits to a prediction (one of
// `choices`); then finds the answer by hand: `reached()` says whether the widget now shows it
// (the reader has done `task`, e.g. "move m to 256"; a function gives the steps still to do). The verdict and `explain(choice)` (which
// reads the widget's state, so its numbers are the ones drawn) appear only once both happened,
// and stay once reached, wherever the controls go next.
// `conceal` lists the nodes that would give the answer away: hidden until the prediction.
// A choice's `correct` is a boolean or a function of the widget's state. Returns
// {node, answer(i), refresh(), predicted(), revealed(), buttons}: refresh() after every redraw.
// With `several`, the prediction is a set: each choice is a toggle, and the reader commits the
// set with a button labelled `several` (the set may be empty); it is right when every choice is
// picked exactly where it is correct. A choice may carry a `picture` (a node shown in its
// button above its label); `explain` then gets the array of picked indices.
// The chosen answer is aria-pressed; the verdict is announced once, when it first shows or
// changes, through the widget's live region (common.js announcer), not on every redraw.
export function question(parent, { prompt, choices, explain, reached = () => true, task = "", conceal = [], several = null }) {
  const box = htmlEl("div", { class: "rope-w-question", role: "group", "aria-label": "question" }, parent);
  typeset(htmlEl("div", { class: "rope-w-question-prompt" }, box), prompt);
  const row = htmlEl("div", { class: "rope-w-answers", role: "group", "aria-label": "your prediction" }, box);
  const feedback = htmlEl("div", { class: "rope-w-feedback", "data-readout": "feedback", "data-stage": "asked" }, box);
  const buttons = choices.map((choice, i) => {
    const button = htmlEl("button", { type: "button", class: "rope-w-answer", "aria-pressed": "false", "data-answer": i }, row);
    if (choice.picture) button.append(choice.picture, htmlEl("span", { class: "rope-w-answer-label" }, null, choice.label));
    else button.textContent = choice.label;
    button.addEventListener("click", () => (several ? toggle(i) : answer(i)));
    button.addEventListener("keydown", (event) => event.stopPropagation());
    return button;
  });
  // The set being picked (several), committed by its own button.
  // Once checked, the picks stay as they were while the reader explores the choices (a tap
  // then shows, it does not re-answer); the same button, now "change my prediction", frees
  // them until the next check.
  const picks = new Set();
  let editing = true;
  if (several) {
    row.classList.add("rope-w-several");
    const commit = htmlEl("button", { type: "button", class: "rope-w-answer rope-w-commit", "data-commit": "" }, box, several);
    box.insertBefore(commit, feedback);
    commit.addEventListener("click", () => {
      if (!editing) {
        editing = true;
        commit.textContent = several;
        return;
      }
      editing = false;
      commit.textContent = "change my prediction";
      answer([...picks].sort((a, b) => a - b));
    });
    commit.addEventListener("keydown", (event) => event.stopPropagation());
  }
  function toggle(i) {
    if (!editing) return;
    if (picks.has(i)) picks.delete(i); else picks.add(i);
    buttons[i].setAttribute("aria-pressed", String(picks.has(i)));
  }
  const hidden = () => (typeof conceal === "function" ? conceal() : conceal);
  for (const node of hidden()) node.setAttribute("data-concealed", "");
  // found: the reader has once reached what answers the question; the verdict then stays,
  // wherever the controls go next.
  let chosen = null, said = null, say = null, found = false, verdict = "";
  const isCorrect = (i) => {
    const correct = choices[i].correct;
    return Boolean(typeof correct === "function" ? correct() : correct);
  };
  const isRight = (chosenNow) => (several
    ? choices.every((_, j) => chosenNow.includes(j) === isCorrect(j))
    : isCorrect(chosenNow));
  const chosenLabel = () => (several
    ? (chosen.length ? chosen.map((j) => choices[j].label).join(", ") : "none of them")
    : choices[chosen].label);
  function answer(i) {
    chosen = i;
    if (!several) buttons.forEach((b, j) => b.setAttribute("aria-pressed", String(j === i)));
    for (const node of hidden()) node.removeAttribute("data-concealed");
    refresh();
  }
  function refresh() {
    if (chosen === null) {
      for (const node of hidden()) node.setAttribute("data-concealed", "");
      return;
    }
    say = say || announcer(box.closest(".rope-w") || box);
    if (!found && !reached()) {
      feedback.dataset.stage = "predicted";
      delete feedback.dataset.correct;
      const text = `Your prediction: “${chosenLabel()}”. Now find out: ${typeof task === "function" ? task() : task}`;
      typeset(feedback, text);
      // Said once, after the prediction, not again on each redraw until the answer is reached.
      if (said === null) { said = "predicted"; say(text); }
      return;
    }
    found = true;
    const right = isRight(chosen);
    feedback.dataset.stage = "revealed";
    feedback.dataset.correct = String(right);
    verdict = `${right ? "✓ Right." : "✗ Not quite."} ${explain(chosen)}`;
    typeset(feedback, verdict);
    // Spoken as it reads when the reader pauses (the numbers may have moved on since).
    if (said !== String(right)) { said = String(right); say(() => verdict, { keep: true }); }
  }
  return { node: box, answer, refresh, buttons, predicted: () => chosen !== null, revealed: () => feedback.dataset.stage === "revealed" };
}
