// What a widget says before it is touched, and the one question it asks: a lesson line, and a
// question with answer buttons whose feedback quotes the widget's own numbers.
import { htmlEl, typeset } from "./common.js";

// The lesson (one sentence, typeset) above the drawing.
export function lesson(root, text) {
  const node = htmlEl("p", { class: "rope-w-lesson", "data-lesson": "" }, null);
  typeset(node, text);
  const body = root.querySelector(".rope-w-body");
  root.insertBefore(node, body);
  return node;
}

// A question with a few answers. `explain(choice)` returns the feedback text (it reads the
// widget's state when the reader answers, so its numbers are the ones drawn). Returns
// {node, answer(i)}; the chosen answer is aria-pressed, the feedback is aria-live.
export function question(parent, { prompt, choices, explain }) {
  const box = htmlEl("div", { class: "rope-w-question", role: "group", "aria-label": "question" }, parent);
  typeset(htmlEl("div", { class: "rope-w-question-prompt" }, box), prompt);
  const row = htmlEl("div", { class: "rope-w-answers" }, box);
  const feedback = htmlEl("div", { class: "rope-w-feedback", "aria-live": "polite", "data-readout": "feedback" }, box);
  const buttons = choices.map((choice, i) => {
    const button = htmlEl("button", { type: "button", class: "rope-w-answer", "aria-pressed": "false", "data-answer": i }, row, choice.label);
    button.addEventListener("click", () => answer(i));
    button.addEventListener("keydown", (event) => event.stopPropagation());
    return button;
  });
  let chosen = null;
  function answer(i) {
    chosen = i;
    buttons.forEach((b, j) => b.setAttribute("aria-pressed", String(j === i)));
    refresh();
  }
  // Called after every redraw: the feedback keeps quoting the numbers now drawn.
  function refresh() {
    if (chosen === null) return;
    const right = Boolean(choices[chosen].correct);
    feedback.dataset.correct = String(right);
    typeset(feedback, `${right ? "✓ Yes." : "✗ Not quite."} ${explain(chosen)}`);
  }
  return { node: box, answer, refresh };
}
