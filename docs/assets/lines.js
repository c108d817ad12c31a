/* Attention Lab: the lines view (attnlab.site.figures.lines), a trained head drawn as lines between words.
 *
 * globalThis.attnlab.lines.choose(figure, query) draws, in the figure's shown sentence, a line from
 * the query word to every key, each line's width and opacity set by the key's weight as the figure's
 * data-values carry them (computed at build time by attnlab.bert); the weight is written beside each
 * key. On every such figure a click or tap on a word on the left chooses it, and the arrow keys (Home,
 * End) move the choice while a word has the focus (one tab stop: the chosen word). Several sentences
 * each get a button. A status line says, for a screen reader, where the chosen word puts most weight.
 *
 * Classic script, no dependencies, works from file:// and a server. MIT licence.
 */
(function (root) {
  "use strict";

  function values(figure) { return JSON.parse(figure.getAttribute("data-values")); }

  function shownPanel(figure) { return figure.querySelector(".lines-panel:not([hidden])"); }

  /** Draw the lines of word `query` in the figure's shown sentence, and mark it chosen. */
  function choose(figure, query) {
    var data = values(figure);
    var panel = shownPanel(figure);
    var k = Number(panel.getAttribute("data-sentence"));
    var sentence = data.sentences[k];
    var row = sentence.weights[query];
    if (!row) { throw new Error("lines view: no word " + query + " in sentence " + k); }
    var words = panel.querySelectorAll(".lines-query");
    var y1 = words[query].getAttribute("data-y");
    words.forEach(function (word, i) {
      var chosen = i === query;
      word.setAttribute("aria-checked", String(chosen));
      word.setAttribute("tabindex", chosen ? "0" : "-1");
      if (chosen) { word.setAttribute("font-weight", "700"); } else { word.removeAttribute("font-weight"); }
    });
    panel.querySelectorAll(".lines-links line").forEach(function (line) {
      var w = row[Number(line.getAttribute("data-key"))];
      line.setAttribute("y1", y1);
      line.setAttribute("data-weight", String(w));
      line.setAttribute("stroke-width", (data.stroke[0] + data.stroke[1] * w).toFixed(2));
      line.setAttribute("stroke-opacity", (data.opacity[0] + data.opacity[1] * w).toFixed(2));
    });
    panel.querySelectorAll("[data-share]").forEach(function (share) {
      share.textContent = row[Number(share.getAttribute("data-share"))].toFixed(3);
    });
    var order = row.map(function (w, j) { return j; }).sort(function (a, b) { return row[b] - row[a]; });
    figure.querySelector(".lines-readout").textContent = "“" + sentence.tokens[query] + "” gives " +
      order.slice(0, 3).map(function (j) { return "“" + sentence.tokens[j] + "” " + row[j].toFixed(3); }).join(", ") + ".";
  }

  /** Show sentence `k` of the figure, on its pronoun. */
  function showSentence(figure, k) {
    figure.querySelectorAll(".lines-panel").forEach(function (panel) {
      panel.hidden = Number(panel.getAttribute("data-sentence")) !== k;
    });
    figure.querySelectorAll(".lines-sentences button").forEach(function (button) {
      button.setAttribute("aria-pressed", String(Number(button.getAttribute("data-sentence")) === k));
    });
    choose(figure, values(figure).sentences[k].query);
  }

  var STEPS = { ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1 };

  function start(figure) {
    if (figure.hasAttribute("data-started")) { return; }
    figure.setAttribute("data-started", "");
    figure.addEventListener("click", function (event) {
      var word = event.target.closest(".lines-query");
      var button = event.target.closest(".lines-sentences button");
      if (word) { choose(figure, Number(word.getAttribute("data-query"))); word.focus(); }
      if (button) { showSentence(figure, Number(button.getAttribute("data-sentence"))); }
    });
    figure.addEventListener("keydown", function (event) {
      var word = event.target.closest(".lines-query");
      if (!word) { return; }
      var n = shownPanel(figure).querySelectorAll(".lines-query").length;
      var i = Number(word.getAttribute("data-query"));
      var next = event.key === "Home" ? 0 : event.key === "End" ? n - 1
        : event.key in STEPS ? (i + STEPS[event.key] + n) % n : null;
      if (next === null) { return; }
      event.preventDefault();
      choose(figure, next);
      shownPanel(figure).querySelectorAll(".lines-query")[next].focus();
    });
  }

  function startAll() { document.querySelectorAll("figure.attnlab-attention-lines").forEach(start); }

  root.attnlab = root.attnlab || {};
  root.attnlab.lines = { choose: choose, showSentence: showSentence, startAll: startAll };
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", startAll);
  } else {
    startAll();
  }
})(globalThis);
