/* Attention Lab: the explorer of all-MiniLM-L6-v2 (markup printed by attnlab.site.build.explorer.widget).
 *
 * Each prepared sentence's numbers are in its own file, assets/explorer/<key>.js, a classic
 * script that sets globalThis.ATTNLAB_EXPLORER[key]. A file is loaded only when its sentence is
 * chosen, by inserting a <script> element: that works from disk (file://) and from a server,
 * where fetch() and modules do not. Weights and contribution sizes are whole multiples of
 * 1/scales[measure] (thousandths and hundredths).
 *
 * Views of the chosen layer and head: a heat map (a table whose cells are reached with the
 * arrow keys) or lines from each query to the keys; below, every head at once as small maps,
 * a radio group (arrow keys move between heads and choose them). Classic script, no
 * dependencies. MIT licence.
 */
(function () {
  "use strict";

  var REGISTRY = "ATTNLAB_EXPLORER";
  var MEASURES = {
    weights: { name: "weight", caption: "weights of each query (row) over the keys" },
    sizes: { name: "contribution size", caption: "size of what each key (column) adds to each query (row)" },
  };

  /* ---- small helpers -------------------------------------------------- */

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function svgElement(tag, attributes) {
    var node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    return node;
  }

  /* The colours come from assets/palette.js (attnlab.site.figures.palette), loaded before this script. */
  var PALETTE = globalThis.ATTNLAB_PALETTE;

  /** White mixed with the colour `end` (an RGB triple) in proportion s. */
  function mixed(end, s) {
    return end.map(function (c) { return Math.round(255 - (255 - c) * s); });
  }

  /** The shade of a share t in [0, 1]: the weight maps' ramp, as attnlab.css draws it. */
  function shade(t) {
    return mixed(PALETTE.rampRgb, PALETTE.rampDepth * Math.max(0, Math.min(1, t)));
  }

  /** The thumbnails' stronger shade: white to the deep end of the ramp (no text sits on them). */
  function thumbShade(t) {
    return mixed(PALETTE.deepRgb, Math.max(0, Math.min(1, t)));
  }

  function ramp(colour) {
    return element("span", { class: "explorer-ramp", style: "background: linear-gradient(to right, rgb(" +
      colour(0).join(",") + "), rgb(" + colour(1).join(",") + "))" });
  }

  function quoted(token) { return "\u201c" + token + "\u201d"; }

  /** Text made safe to put in markup, between tags or in a quoted attribute. */
  function escaped(text) {
    return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
  }

  /** x with a fixed count of decimals, never a negative zero ("-0.000" is written 0.000). */
  function fixed(x, places) {
    var text = x.toFixed(places);
    return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
  }

  /* ---- data: one script per sentence, inserted on demand ---------------- */

  function registry() {
    globalThis[REGISTRY] = globalThis[REGISTRY] || {};
    return globalThis[REGISTRY];
  }

  var pending = {};

  /** A promise of the sentence's data, inserting its script the first time it is asked for. */
  function loadSentence(base, key) {
    if (registry()[key]) { return Promise.resolve(registry()[key]); }
    if (!pending[key]) {
      pending[key] = new Promise(function (resolve, reject) {
        var src = base + key + ".js";
        var script = element("script", { src: src, "data-explorer-data": key });
        script.onload = function () {
          if (registry()[key]) { resolve(registry()[key]); } else { reject(new Error(src + " did not define " + key)); }
        };
        script.onerror = function () { delete pending[key]; reject(new Error("could not load " + src)); };
        document.head.appendChild(script);
      });
    }
    return pending[key];
  }

  /** Decimals to show of a measure: its scale is a power of ten, so they are exact. */
  function decimals(data, measure) { return Math.round(Math.log10(data.scales[measure])); }

  /** The n × n values of one head as numbers (the stored steps divided out), row-major. */
  function headValues(data, measure, layer, head) {
    var counts = data[measure][layer * data.heads + head];
    var values = new Float64Array(counts.length);
    for (var at = 0; at < counts.length; at += 1) { values[at] = counts[at] / data.scales[measure]; }
    return values;
  }

  /** The value shaded darkest: weight 1, or the head's largest contribution size. */
  function darkest(measure, values) {
    if (measure === "weights") { return 1; }
    return Math.max(1e-12, values.reduce(function (a, b) { return Math.max(a, b); }, 0));
  }

  /* ---- the story: where a word looks beyond its neighbours ------------------ */

  /** The real tokens that are words: neither [CLS], [SEP] nor padding. */
  function words(data) {
    var found = [];
    data.tokens.forEach(function (token, i) {
      if (data.real[i] && token !== "[CLS]" && token !== "[SEP]") { found.push(i); }
    });
    return found;
  }

  /** In head number `at` (layer-major), the word that `query` weighs most among the words at least two places
   *  from it: {key, weight} (the first such key on a tie; key -1 when the sentence has no such word). */
  function farthestLook(data, at, query, candidates) {
    var n = data.tokens.length;
    var best = { key: -1, weight: -1 };
    candidates.forEach(function (key) {
      var w = data.weights[at][query * n + key];
      if (Math.abs(key - query) >= 2 && w > best.weight) { best = { key: key, weight: w }; }
    });
    return { key: best.key, weight: best.weight / data.scales.weights };
  }

  /** Every head, for one word: {layer, head, key, weight}, by the largest weight the word gives to one other word
   *  at least two places away, largest first (ties in the order of the heads). */
  function wordHeads(data, query) {
    var candidates = words(data);
    var heads = [];
    for (var at = 0; at < data.layers * data.heads; at += 1) {
      var look = farthestLook(data, at, query, candidates);
      heads.push({ layer: Math.floor(at / data.heads), head: at % data.heads, key: look.key, weight: look.weight });
    }
    return heads.sort(function (a, b) { return b.weight - a.weight || a.layer - b.layer || a.head - b.head; });
  }

  /** Where the explorer opens: of every head and word, the largest weight one word gives another word at least
   *  two places away, {layer, head, query, key, weight} (the first word and head on a tie). A head that mostly
   *  looks at the previous token, or at [CLS] and [SEP], never wins: what it weighs is left out. */
  function opening(data) {
    var best = null;
    words(data).forEach(function (query) {
      var top = wordHeads(data, query)[0];
      if (!best || top.weight > best.weight) { best = Object.assign({ query: query }, top); }
    });
    return best;
  }

  globalThis.attnlab = globalThis.attnlab || {};
  globalThis.attnlab.explorerStory = { words: words, wordHeads: wordHeads, opening: opening };

  /* ---- one explorer ---------------------------------------------------- */

  function Explorer(root) {
    this.root = root;
    this.base = root.getAttribute("data-data");
    this.layers = Number(root.getAttribute("data-layers"));
    this.heads = Number(root.getAttribute("data-heads"));
    this.sentence = root.querySelector("#explorer-sentence");
    this.layerSelect = root.querySelector("#explorer-layer");
    this.headSelect = root.querySelector("#explorer-head");
    this.status = root.querySelector(".explorer-status");
    this.lookFor = root.querySelector(".explorer-look-for");
    this.view = root.querySelector(".explorer-view");
    this.readout = root.querySelector(".explorer-readout");
    this.legend = root.querySelector(".explorer-legend");
    this.model = root.querySelector(".explorer-model");
    this.modelLegend = root.querySelector(".explorer-model-legend");
    this.neuron = root.querySelector(".explorer-neuron");
    this.topHeads = root.querySelector(".explorer-top");
    this.wordsBox = root.querySelector(".explorer-words");
    this.code = root.querySelector(".explorer-code code");
    this.scales = JSON.parse(root.getAttribute("data-scales"));
    this.data = null;
    this.cell = { query: 0, key: 0 };
    this.query = null;  // the query whose lines are shown, or null for all
    this.request = 0;
    this.computing = false;  // whether the reader's own sentence is being computed
    this.completeMap = function () {};
    this.bind();
    this.buildModelView();
    var own = root.querySelector(".explorer-own");
    if (own) { this.bindOwn(own); }
    this.choose(this.sentence.value);
  }

  Explorer.prototype.state = function () {
    var checked = function (name) { return this.root.querySelector('input[name="explorer-' + name + '"]:checked').value; }.bind(this);
    return {
      layer: Number(this.layerSelect.value),
      head: Number(this.headSelect.value),
      measure: checked("measure"),
      view: checked("view"),
    };
  };

  Explorer.prototype.bind = function () {
    var self = this;
    this.sentence.addEventListener("change", function () { self.choose(self.sentence.value); });
    [this.layerSelect, this.headSelect].forEach(function (select) {
      select.addEventListener("change", function () { self.render(); });
    });
    Array.prototype.forEach.call(this.root.querySelectorAll('input[type="radio"]'), function (input) {
      input.addEventListener("change", function () { self.render(); });
    });
  };

  /** Load a sentence (its file, the first time) and show it; a failure is said in the status line. A promise, settled
   *  once that is done. */
  Explorer.prototype.choose = function (key) {
    var self = this;
    var request = ++this.request;
    this.status.textContent = "Loading the numbers of this sentence\u2026";
    return loadSentence(this.base, key).then(function (data) {
      if (request !== self.request) { return; }  // the reader has chosen another sentence since
      self.data = data;
      var start = opening(data);
      start = start && start.key >= 0 ? start : null;
      self.cell = start ? { query: start.query, key: start.key } : { query: 0, key: 0 };
      self.marked = Boolean(start);
      self.query = null;
      self.showLookFor(data, start);
      self.render();
      self.renderWords(start ? start.query : null);
    }, function (error) {
      if (request !== self.request) { return; }
      self.status.textContent = "The numbers of this sentence could not be loaded (" + error.message + ").";
    });
  };

  /** The sentence's question, the head it opens on (`start`, from opening()) and why, a hint, and the answer
   *  folded away. */
  Explorer.prototype.showLookFor = function (data, start) {
    var parts = [element("p", {}, data.lookFor)];
    if (start) {
      this.layerSelect.value = String(start.layer);
      this.headSelect.value = String(start.head);
      parts.push(element("p", { "data-testid": "opening" }, "Opened on layer " + (start.layer + 1) + ", head " +
        (start.head + 1) + ", where " + quoted(data.tokens[start.query]) + " gives " + quoted(data.tokens[start.key]) +
        " " + fixed(start.weight, decimals(data, "weights")) + " of its weight: of all " + data.layers * data.heads +
        " heads and every word, the most one word gives another word two or more places away (not [CLS], [SEP] " +
        "or a neighbour)."));
    }
    if (data.hint) { parts.push(element("p", { "data-testid": "hint" }, "Hint: " + data.hint)); }
    if (data.answer) {
      var fold = element("details", { "data-testid": "answer" });
      fold.appendChild(element("summary", {}, "Answer"));
      fold.appendChild(element("p", {}, data.answer));
      parts.push(fold);
    }
    this.lookFor.replaceChildren.apply(this.lookFor, parts);
  };

  /** Ask for a word, and list the heads where the chosen word (`query`, or null for none yet) gives one other
   *  word, two or more places away, the most weight: each a button showing that head and pair. */
  Explorer.prototype.renderWords = function (query) {
    var self = this;
    var data = this.data;
    if (!this.wordsBox) { return; }
    var group = element("div", { class: "explorer-word-list", role: "group", "aria-labelledby": "explorer-words-title" });
    words(data).forEach(function (i) {
      var button = element("button", { type: "button", class: "explorer-word", "aria-pressed": String(i === query),
        "data-testid": "word-" + i }, data.tokens[i]);
      button.addEventListener("click", function () { self.pickWord(i); });
      group.appendChild(button);
    });
    var parts = [element("p", { id: "explorer-words-title", class: "explorer-words-title" },
      "Pick a word to see which heads look from it to another word:"), group];
    if (query !== null) {
      var heads = wordHeads(data, query).filter(function (h) { return h.key >= 0; }).slice(0, LISTED);
      var list = element("ol", { class: "explorer-top-list", "data-testid": "word-heads" });
      heads.forEach(function (h) {
        var button = element("button", { type: "button", class: "explorer-top-head",
          "data-testid": "word-head-" + h.layer + "-" + h.head },
          "layer " + (h.layer + 1) + ", head " + (h.head + 1) + ": " + quoted(data.tokens[h.key]) + " " +
          fixed(h.weight, decimals(data, "weights")));
        button.addEventListener("click", function () { self.pick(h.layer, h.head, false, { query: query, key: h.key }); });
        list.appendChild(element("li")).appendChild(button);
      });
      parts.push(heads.length
        ? element("p", {}, "The " + heads.length + " heads where " + quoted(data.tokens[query]) +
            " gives one word two or more places away the most weight:")
        : element("p", {}, "No word is two or more places from " + quoted(data.tokens[query]) + "."));
      if (heads.length) { parts.push(list); }
    }
    this.wordsBox.replaceChildren.apply(this.wordsBox, parts);
  };

  /** Choose a word: list its heads, and show the first of them with the word's pair marked on the map. */
  Explorer.prototype.pickWord = function (query) {
    this.renderWords(query);
    var top = wordHeads(this.data, query)[0];
    if (top.key >= 0) {
      this.cell = { query: query, key: top.key };
      this.marked = true;
      this.pick(top.layer, top.head, false);
    }
    this.wordsBox.querySelector('[data-testid="word-' + query + '"]').focus();
  };

  Explorer.prototype.render = function () {
    if (!this.data) { return; }
    var s = this.state();
    var data = this.data;
    this.root.setAttribute("data-sentence", data.key);
    this.status.textContent = "Layer " + (s.layer + 1) + ", head " + (s.head + 1) + " of " +
      quoted(data.batch[0]) + ", " + data.tokens.length + " tokens.";
    if (this.code) { this.code.textContent = "bert.encode(sentence)[0].layers[" + s.layer + "].heads[" + s.head + "]"; }
    if (s.view === "lines") { this.renderLines(s); } else { this.renderMap(s); }
    this.renderLegend(s);
    this.updateModelView(s);
  };

  /** The chosen head's values of the chosen measure, their count of tokens, and the value shaded darkest. */
  Explorer.prototype.chosen = function (s) {
    var values = headValues(this.data, s.measure, s.layer, s.head);
    return { n: this.data.tokens.length, values: values, top: darkest(s.measure, values) };
  };

  Explorer.prototype.caption = function (s) {
    return "Layer " + (s.layer + 1) + ", head " + (s.head + 1) + ": " + MEASURES[s.measure].caption;
  };

  /** What one cell holds, in words: both measures, as the readout says them. */
  Explorer.prototype.describe = function (s, query, key) {
    var data = this.data;
    var n = data.tokens.length;
    var at = query * n + key;
    var w = headValues(data, "weights", s.layer, s.head)[at];
    var size = headValues(data, "sizes", s.layer, s.head)[at];
    var where = "Query " + (query + 1) + " " + quoted(data.tokens[query]) + ", key " + (key + 1) + " " +
      quoted(data.tokens[key]) + ": ";
    if (!data.real[key]) { return where + "a padding key, blocked (weight 0)."; }
    return where + "weight " + fixed(w, decimals(data, "weights")) + ", contribution size " +
      fixed(size, decimals(data, "sizes")) + ".";
  };

  /* ---- heat map --------------------------------------------------------- */

  /** About how many cells of a map are drawn at once; the rest follow after the first frame. */
  var FIRST_CELLS = 1024;

  /** The chosen head as a grid: a table whose cells are coloured squares (the number hidden from sight, read
   *  on hover, on focus and by a screen reader), sized to fit the column; or, as "numbers", the same table with
   *  its digits shown, in a box that scrolls sideways when it is wider than the column. A long sentence's map
   *  has tens of thousands of cells: its first rows are drawn at once, with everything else the sentence shows,
   *  and the rest in one step after that frame (a table lays out all its rows again when rows are added, so
   *  more steps would cost more); completeMap() puts in every row still missing. */
  Explorer.prototype.renderMap = function (s) {
    var self = this;
    var data = this.data;
    var shown = this.chosen(s);
    var n = shown.n;
    var places = decimals(data, s.measure);
    var digits = s.view === "numbers";
    var table = element("table", { class: "attn-map explorer-map" + (digits ? "" : " explorer-squares"), role: "grid",
      "data-testid": "map", style: "--n:" + n });
    var tokens = data.tokens.map(escaped);
    table.innerHTML = "<caption>" + escaped(this.caption(s)) + '</caption><thead><tr><td class="corner">' +
      (digits ? "query \\ key" : "") + "</td>" + tokens.map(function (token) {
        return '<th scope="col" title="' + token + '">' + token + "</th>";
      }).join("") + "</tr></thead><tbody></tbody>";
    var body = table.tBodies[0];
    var spanOpen = digits ? "<span>" : '<span class="explorer-value">';
    /** The markup of row i: each cell's shade, number, name, place and tab stop in one string. */
    var row = function (i) {
      var html = [data.real[i] ? "<tr>" : '<tr class="explorer-padding-row">', '<th scope="row" title="', tokens[i], '">',
        tokens[i], "</th>"];
      var from = quoted(tokens[i]) + " \u2192 ";
      for (var j = 0; j < n; j += 1) {
        var v = shown.values[i * n + j];
        var text = data.real[j] ? fixed(v, places) : "blocked";
        var chosen = i === self.cell.query && j === self.cell.key;
        var marked = chosen && self.marked ? "explorer-chosen-cell" : "";
        var classes = data.real[j] ? marked : "blocked" + (marked && " " + marked);
        html.push("<td", data.real[j] ? ' style="--w:' + (v / shown.top).toFixed(4) + '"' : "",
          classes ? ' class="' + classes + '"' : "", marked ? ' aria-selected="true"' : "",
          ' data-testid="cell-', i, "-", j, '" title="', from, quoted(tokens[j]), ": ", text, '" tabindex="',
          chosen ? "0" : "-1", '" data-query="', i, '" data-key="', j, '">', spanOpen, text, "</span></td>");
      }
      html.push("</tr>");
      return html.join("");
    };
    var done = 0;
    var grow = function (rows) {
      var html = [];
      for (; done < Math.min(n, rows); done += 1) { html.push(row(done)); }
      body.insertAdjacentHTML("beforeend", html.join(""));
    };
    grow(Math.floor(FIRST_CELLS / n));
    if (done < n) {  // after the frame that shows the first rows, a task of its own; not while a sentence that
      // will replace the map is computed (a sentence refused completes it)
      requestAnimationFrame(function () {
        setTimeout(function () { if (table.isConnected && !self.computing) { grow(n); } });
      });
    }
    this.completeMap = function () { grow(n); };
    table.addEventListener("keydown", function (event) { self.moveCell(event, s); });
    table.addEventListener("focusin", function (event) {
      var cell = event.target.closest("td[data-query]");
      if (cell) { self.focusCell(s, Number(cell.getAttribute("data-query")), Number(cell.getAttribute("data-key")), false); }
    });
    table.addEventListener("click", function (event) {
      var cell = event.target.closest("td[data-query]");
      if (cell) { cell.focus(); }
    });
    this.view.replaceChildren(this.scrollBox(table, this.caption(s)));
    watchBoxes();
    this.readout.textContent = (digits ? "" : "Each square\u2019s shade is its number: hover over it, or ") +
      (digits ? "Move" : "move") + " through the map with the arrow keys or click a cell, to read both numbers of a " +
      "pair and see how its weight is made.";
    if (this.data.exact || (this.neuron && !this.neuron.hidden)) { this.renderNeuron(s, this.cell.query, this.cell.key); }
  };

  /** Content in a box that scrolls sideways on a narrow screen. The guide's scroll-boxes.js gives it its one cue
   *  (a line saying to scroll, the cut side faded), a tab stop while it is wide, and a name: call watchBoxes()
   *  once it is in the page. */
  Explorer.prototype.scrollBox = function (content, label) {
    var frame = element("div", { class: "explorer-frame" });
    var box = element("div", { class: "attn-map-scroll explorer-scroll", role: "group", "aria-label": label });
    box.appendChild(content);
    frame.appendChild(box);
    return frame;
  };

  /** Have scroll-boxes.js watch the boxes just put in the page (it scans only when the page loads). */
  function watchBoxes() {
    if (globalThis.attnlabScrollBoxes) { globalThis.attnlabScrollBoxes.scan(); }
  }

  Explorer.prototype.focusCell = function (s, query, key, move) {
    this.completeMap();
    this.cell = { query: query, key: key };
    this.marked = true;
    var target = this.view.querySelector('td[data-query="' + query + '"][data-key="' + key + '"]');
    // only the cell chosen before and the one chosen now change: a 128-piece map has 16,384 cells
    this.view.querySelectorAll('td[data-query][tabindex="0"], td.explorer-chosen-cell').forEach(function (cell) {
      cell.setAttribute("tabindex", "-1");
      cell.setAttribute("aria-selected", "false");
      cell.classList.remove("explorer-chosen-cell");
    });
    target.setAttribute("tabindex", "0");
    target.setAttribute("aria-selected", "true");
    target.classList.add("explorer-chosen-cell");
    if (move) { target.focus(); }
    this.readout.textContent = this.describe(s, query, key);
    this.renderTopHeads(query, key);
    this.renderNeuron(s, query, key);
  };

  var LISTED = 5;

  /** The heads, of all layers, that give this query the most weight on this key, as buttons that show them. */
  Explorer.prototype.renderTopHeads = function (query, key) {
    var self = this;
    var data = this.data;
    var n = data.tokens.length;
    var heads = [];
    for (var at = 0; at < data.layers * data.heads; at += 1) {
      heads.push({ layer: Math.floor(at / data.heads), head: at % data.heads, weight: data.weights[at][query * n + key] / data.scales.weights });
    }
    heads.sort(function (a, b) { return b.weight - a.weight || a.layer - b.layer || a.head - b.head; });
    var list = element("ol", { class: "explorer-top-list" });
    heads.slice(0, LISTED).forEach(function (h) {
      var button = element("button", { type: "button", class: "explorer-top-head", "data-testid": "top-head-" + h.layer + "-" + h.head },
        "layer " + (h.layer + 1) + ", head " + (h.head + 1) + ": " + fixed(h.weight, decimals(data, "weights")));
      button.addEventListener("click", function () { self.pick(h.layer, h.head, false, { query: query, key: key }); });
      list.appendChild(element("li")).appendChild(button);
    });
    this.topHeads.replaceChildren(element("span", {}, "The " + LISTED + " heads that give " + quoted(data.tokens[query]) +
      " the most weight on " + quoted(data.tokens[key]) + ":"), list);
  };

  Explorer.prototype.moveCell = function (event, s) {
    var n = this.data.tokens.length;
    var q = this.cell.query;
    var k = this.cell.key;
    var moves = {
      ArrowUp: [q - 1, k], ArrowDown: [q + 1, k], ArrowLeft: [q, k - 1], ArrowRight: [q, k + 1],
      Home: [q, 0], End: [q, n - 1], PageUp: [0, k], PageDown: [n - 1, k],
    };
    var to = moves[event.key];
    if (!to) { return; }
    event.preventDefault();
    this.focusCell(s, Math.max(0, Math.min(n - 1, to[0])), Math.max(0, Math.min(n - 1, to[1])), true);
  };

  /* ---- lines ------------------------------------------------------------- */

  Explorer.prototype.renderLines = function (s) {
    var self = this;
    var data = this.data;
    var shown = this.chosen(s);
    var n = shown.n;
    var box = element("div", { class: "explorer-lines", "data-testid": "lines", style: "--rows:" + n });
    var queries = element("div", { class: "explorer-lines-queries", role: "group",
      "aria-label": "Queries: choose one to see only its lines and numbers" });
    var svg = svgElement("svg", { class: "explorer-lines-svg", viewBox: "0 0 100 " + n, preserveAspectRatio: "none",
      "aria-hidden": "true" });
    var keys = element("div", { class: "explorer-lines-keys", role: "list", "aria-label": "Keys" });
    data.tokens.forEach(function (token, i) {
      var pressed = self.query === i;
      var button = element("button", { type: "button", "aria-pressed": String(pressed), "data-query": i,
        "data-testid": "line-query-" + i }, token);
      button.addEventListener("click", function () {
        self.query = self.query === i ? null : i;
        self.renderLines(s);
        self.view.querySelector('[data-query="' + i + '"]').focus();
      });
      queries.appendChild(button);
      var item = element("div", { role: "listitem", "data-testid": "line-key-" + i }, token);
      if (self.query !== null) {
        var v = shown.values[self.query * n + i];
        item.appendChild(element("span", { class: "explorer-line-value" }, data.real[i] ? fixed(v, decimals(data, s.measure)) : "blocked"));
      }
      keys.appendChild(item);
    });
    for (var i = 0; i < n; i += 1) {
      if (self.query !== null && self.query !== i) { continue; }
      for (var j = 0; j < n; j += 1) {
        var share = shown.values[i * n + j] / shown.top;
        if (share < 0.005) { continue; }
        svg.appendChild(svgElement("line", { x1: 0, y1: i + 0.5, x2: 100, y2: j + 0.5, "stroke-opacity": share.toFixed(3),
          "data-query": i, "data-key": j }));
      }
    }
    box.appendChild(queries);
    box.appendChild(svg);
    box.appendChild(keys);
    this.view.replaceChildren(box);
    this.readout.textContent = self.query === null
      ? "Lines from every query (left) to the keys (right), the darker the larger. Choose a query to see only its lines and their numbers."
      : "Query " + quoted(data.tokens[self.query]) + ": its " + MEASURES[s.measure].name + "s are beside the keys on the right.";
  };

  /* ---- legend ------------------------------------------------------------ */

  Explorer.prototype.renderLegend = function (s) {
    var data = this.data;
    var values = headValues(data, s.measure, s.layer, s.head);
    var top = darkest(s.measure, values);
    var text = s.measure === "weights"
      ? "Shade: the weight, from 0 (white) to 1 (darkest)."
      : "Shade: the contribution size, from 0 (white) to " + fixed(top, decimals(data, s.measure)) + ", this head\u2019s largest (darkest).";
    var full = function (t) { return mixed(PALETTE.rampRgb, Math.max(0, Math.min(1, t))); };
    this.legend.replaceChildren(element("span", { class: "explorer-legend-end" }, "0"), ramp(s.view === "map" ? full : shade),
      element("span", { class: "explorer-legend-end" }, fixed(top, decimals(data, s.measure))), element("span", { class: "explorer-legend-text" }, text));
  };

  /* ---- every head at once ------------------------------------------------ */

  Explorer.prototype.buildModelView = function () {
    var self = this;
    this.model.replaceChildren();
    this.model.style.setProperty("--heads", this.heads);
    this.model.appendChild(element("span", { class: "explorer-model-corner", "aria-hidden": "true" }));
    for (var h = 0; h < this.heads; h += 1) {
      this.model.appendChild(element("span", { class: "explorer-model-label", "aria-hidden": "true" }, String(h + 1)));
    }
    this.thumbs = [];
    for (var layer = 0; layer < this.layers; layer += 1) {
      this.model.appendChild(element("span", { class: "explorer-model-label", "aria-hidden": "true" }, String(layer + 1)));
      for (var head = 0; head < this.heads; head += 1) {
        var button = element("button", { type: "button", role: "radio", "aria-checked": "false", tabindex: "-1",
          "aria-label": "Layer " + (layer + 1) + ", head " + (head + 1), "data-layer": layer, "data-head": head,
          "data-testid": "thumb-" + layer + "-" + head });
        button.appendChild(element("canvas", { width: 1, height: 1, "aria-hidden": "true" }));
        this.model.appendChild(button);
        this.thumbs.push(button);
      }
    }
    this.model.addEventListener("click", function (event) {
      var button = event.target.closest("button[data-layer]");
      if (!button) { return; }
      self.pick(Number(button.getAttribute("data-layer")), Number(button.getAttribute("data-head")), true);
      self.view.scrollIntoView({ block: "nearest" });  // the map it changed, which may be scrolled off screen
    });
    this.model.addEventListener("keydown", function (event) {
      var s = self.state();
      var at = s.layer * self.heads + s.head;
      var last = self.layers * self.heads - 1;
      var to = { ArrowLeft: at - 1, ArrowRight: at + 1, ArrowUp: at - self.heads, ArrowDown: at + self.heads,
        Home: 0, End: last }[event.key];
      if (to === undefined) { return; }
      event.preventDefault();
      to = Math.max(0, Math.min(last, to));
      self.pick(Math.floor(to / self.heads), to % self.heads, true);
    });
  };

  /** Choose a head from the model view: the selectors follow, and so does everything shown. */
  Explorer.prototype.pick = function (layer, head, focus, cell) {
    this.layerSelect.value = String(layer);
    this.headSelect.value = String(head);
    this.render();
    if (focus) { this.thumbs[layer * this.heads + head].focus(); }
    if (cell && this.state().view !== "lines") {
      this.focusCell(this.state(), cell.query, cell.key, true);
      this.view.scrollIntoView({ block: "nearest" });
    }
  };

  Explorer.prototype.updateModelView = function (s) {
    var data = this.data;
    var n = data.tokens.length;
    var scale = data.scales[s.measure];
    var self = this;
    this.thumbs.forEach(function (button, index) {
      var layer = Math.floor(index / self.heads);
      var head = index % self.heads;
      var chosen = layer === s.layer && head === s.head;
      button.setAttribute("aria-checked", String(chosen));
      button.setAttribute("tabindex", chosen ? "0" : "-1");
      var canvas = button.firstChild;
      canvas.width = n;
      canvas.height = n;
      var counts = data[s.measure][index];  // whole steps of 1/scale
      var most = 0;  // a loop, not reduce: no function call per square
      for (var i = 0; i < counts.length; i += 1) { if (counts[i] > most) { most = counts[i]; } }
      var top = darkest(s.measure, [most / scale]);
      var shades = new Uint8ClampedArray(3 * (most + 2));  // each step's shade (fewer than the squares), then grey
      for (var step = 0; step <= most; step += 1) { shades.set(thumbShade(step / scale / top), 3 * step); }
      shades.set(PALETTE.blockedRgb, 3 * (most + 1));
      var context = canvas.getContext("2d");
      var image = context.createImageData(n, n);
      var pixels = image.data;
      for (var at = 0; at < counts.length; at += 1) {
        var from = 3 * (data.real[at % n] ? counts[at] : most + 1);
        pixels[4 * at] = shades[from];
        pixels[4 * at + 1] = shades[from + 1];
        pixels[4 * at + 2] = shades[from + 2];
        pixels[4 * at + 3] = 255;
      }
      context.putImageData(image, 0, 0);
    });
    var text = s.measure === "weights"
      ? "Shade of each square: the weight, from 0 (white) to 1 (darkest); grey marks padding keys."
      : "Shade of each square: the contribution size, from 0 (white) to that head\u2019s largest (darkest); " +
        "grey marks padding keys.";
    this.modelLegend.replaceChildren(element("span", { class: "explorer-legend-end" }, "0"), ramp(thumbShade),
      element("span", { class: "explorer-legend-end" }, s.measure === "weights" ? "1" : "largest"),
      element("span", { class: "explorer-legend-text" }, text));
  };


  /* ---- the reader's own sentence ---------------------------------------- */

  /** Mebibytes, one decimal, as the guide writes sizes. */
  function mebibytes(bytes) { return (bytes / 1048576).toFixed(1) + " MiB"; }

  /** The model's result as a sentence's data, in the prepared files' whole steps, the exact result kept beside. */
  function ownData(text, result, scales) {
    var steps = function (grids, scale) {
      var out = [];
      grids.forEach(function (layer) {
        layer.forEach(function (head) {
          var n = head.length;
          var flat = new Int32Array(n * n);
          // Math.round in a third of its time in V8, the same for x ≥ 0 but a rounding error below one half
          head.forEach(function (row, i) {
            for (var j = 0; j < n; j += 1) { flat[i * n + j] = Math.floor(row[j] * scale + 0.5); }
          });
          out.push(flat);
        });
      });
      return out;
    };
    return {
      key: "own", label: "Your sentence", batch: [text], tokens: result.tokens,
      lookFor: "Your sentence, run through the model in this page (its weights rounded to half precision).",
      real: result.tokens.map(function () { return 1; }), layers: result.attentions.length,
      heads: result.attentions[0].length, scales: scales,
      weights: steps(result.attentions, scales.weights), sizes: steps(result.sizes, scales.sizes), exact: result,
    };
  }

  Explorer.prototype.bindOwn = function (own) {
    var self = this;
    var part = function (id) { return own.querySelector('[data-testid="' + id + '"]'); };
    var loadButton = part("model-load");
    var cancelButton = part("model-cancel");
    var progress = part("model-progress");
    var status = part("model-status");
    var form = part("own-form");
    var text = part("own-text");
    var run = part("own-run");
    var stage = function (name) { own.setAttribute("data-model-state", name); };
    loadButton.addEventListener("click", function () {
      loadButton.hidden = true;
      cancelButton.hidden = false;
      progress.parentNode.hidden = false;
      progress.value = 0;
      status.textContent = "Loading the model\u2026";
      stage("loading");
      globalThis.attnlab.model.load({ onProgress: function (bytes, total) {
        progress.max = total;
        progress.value = bytes;
        status.textContent = "Loaded and checked " + mebibytes(bytes) + " of " + mebibytes(total) + ".";
      } }).then(function () {
        stage("ready");
        cancelButton.hidden = true;
        progress.parentNode.hidden = true;
        run.hidden = false;
        text.focus();
        if (text.value.trim()) {
          form.requestSubmit();
        } else {
          status.textContent = "The model is ready: type a sentence and choose \u201cShow every head\u201d.";
        }
      }, function (error) {
        stage("failed");
        cancelButton.hidden = true;
        progress.parentNode.hidden = true;
        loadButton.hidden = false;
        status.textContent = error.name === "AbortError" ? error.message : "The model could not be loaded: " + error.message;
      });
    });
    cancelButton.addEventListener("click", function () { globalThis.attnlab.model.cancel(); });
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (!globalThis.attnlab.model.loaded()) { loadButton.click(); return; }
      var sentence = text.value;
      stage("computing");
      self.computing = true;
      status.textContent = "Computing every head of your sentence\u2026";
      globalThis.attnlab.model.encode(sentence).then(function (result) {
        self.computing = false;
        var previous = registry().own;
        registry().own = ownData(sentence, result, self.scales);
        if (!self.sentence.querySelector('option[value="own"]')) {
          self.sentence.appendChild(element("option", { value: "own" }, "Your sentence"));
        }
        self.sentence.value = "own";
        self.choose("own").then(function () {  // the sentence before is no longer shown: its memory goes back
          if (previous) { globalThis.attnlab.model.release(previous.exact); }
        });
        stage("shown");
        status.textContent = "Your sentence gives " + result.tokens.length + " word pieces; every head is shown. " +
          "Pick a word to see which heads look from it to another word.";
        self.wordsBox.scrollIntoView({ block: "nearest" });
      }, function (error) {
        self.computing = false;
        self.completeMap();
        stage("refused");
        status.textContent = error.message;
      });
    });
  };

  /* ---- the neuron view ---------------------------------------------------- */

  var VECTORS = "ATTNLAB_EXPLORER_VECTORS";
  var pendingVectors = {};

  /** A promise of one layer's vectors of a prepared sentence, inserting their script the first time. */
  function loadVectors(base, key, layer) {
    var name = key + "/" + layer;
    var kept = globalThis[VECTORS] || {};
    if (kept[name]) { return Promise.resolve(kept[name]); }
    if (!pendingVectors[name]) {
      pendingVectors[name] = new Promise(function (resolve, reject) {
        var src = base + key + "-layer-" + layer + ".js";
        var script = element("script", { src: src });
        script.onload = function () {
          var found = (globalThis[VECTORS] || {})[name];
          if (found) { resolve(found); } else { reject(new Error(src + " did not define " + name)); }
        };
        script.onerror = function () { delete pendingVectors[name]; reject(new Error("could not load " + src)); };
        document.head.appendChild(script);
      });
    }
    return pendingVectors[name];
  }

  /** The numbers of one pair from the page's own model: {q, k, score, scaled, weights, size, length}. */
  function pairFromModel(exact, s, query, key) {
    var at = function (name) { return exact[name][s.layer][s.head]; };
    return { q: at("queries")[query], k: at("keys")[key], score: at("scores")[query][key],
             scaled: at("scaled")[query], weights: at("attentions")[query], size: at("sizes")[query][key],
             sizeDecimals: 3, length: at("lengths")[key] };
  }

  /** The same from a prepared sentence's data and the layer's stored vectors (whole 1/scale steps). */
  function pairFromFiles(data, vectors, s, query, key) {
    var n = data.tokens.length;
    var width = vectors.queries.length / n;
    var d = width / data.heads;
    var unit = function (x) { return x / vectors.scale; };
    var part = function (flat, row) { return flat.slice(row * width + s.head * d, row * width + (s.head + 1) * d).map(unit); };
    var raw = vectors.scores[s.head].slice(query * n, (query + 1) * n).map(unit);
    return { q: part(vectors.queries, query), k: part(vectors.keys, key), score: raw[key],
             scaled: raw.map(function (x) { return x / Math.sqrt(d); }),
             weights: headValues(data, "weights", s.layer, s.head).slice(query * n, (query + 1) * n),
             size: headValues(data, "sizes", s.layer, s.head)[query * n + key], sizeDecimals: decimals(data, "sizes"),
             length: unit(vectors.lengths[s.head][key]) };
  }

  /** Show how query's weight on key is made in the chosen head (its numbers from the model or the stored files). */
  Explorer.prototype.renderNeuron = function (s, query, key) {
    var self = this;
    var data = this.data;
    if (!this.neuron) { return; }
    if (data.exact) { this.drawNeuron(s, query, key, pairFromModel(data.exact, s, query, key)); return; }
    var request = this.neuronRequest = (this.neuronRequest || 0) + 1;
    loadVectors(this.base, data.key, s.layer).then(function (vectors) {
      if (request === self.neuronRequest && self.data === data) {
        self.drawNeuron(s, query, key, pairFromFiles(data, vectors, s, query, key));
      }
    }, function (error) {
      if (request !== self.neuronRequest) { return; }
      self.neuron.replaceChildren(element("p", {}, "The neuron view's numbers could not be loaded (" + error.message + ")."));
      self.neuron.hidden = false;
    });
  };

  var NEURON_ROWS = 8;

  /** A number beside a bar drawn from the middle of its cell: right for a positive x, left for a negative one, as
   *  long as |x| / largest allows. */
  function barCell(x, largest) {
    var cell = element("td");
    var bar = element("span", { class: "explorer-bar" + (x < 0 ? " explorer-bar-negative" : ""), "aria-hidden": "true" });
    bar.appendChild(element("span", { style: "width:" + (50 * Math.abs(x) / Math.max(largest, 1e-12)).toFixed(2) + "%" }));
    cell.appendChild(element("span", { class: "explorer-bar-number" }, fixed(x, 3)));
    cell.appendChild(bar);
    return cell;
  }

  Explorer.prototype.drawNeuron = function (s, query, key, pair) {
    var self = this;
    var tokens = this.data.tokens;
    var real = this.data.real;
    var d = pair.q.length;
    var weight = pair.weights[key];
    var products = Array.from(pair.q, function (x, c) { return x * pair.k[c]; });  // the model's are typed arrays
    var order = products.map(function (_, c) { return c; })
      .sort(function (a, b) { return Math.abs(products[b]) - Math.abs(products[a]) || a - b; });
    var all = Boolean(this.neuronAll);
    var rowsShown = all ? order : order.slice(0, NEURON_ROWS);
    var largest = function (values) { return values.reduce(function (m, x) { return Math.max(m, Math.abs(x)); }, 0); };
    var scale = { q: largest(pair.q), k: largest(pair.k), p: largest(products) };
    var partial = rowsShown.reduce(function (sum, c) { return sum + products[c]; }, 0);
    var table = element("table", { class: "explorer-neuron-table", "data-testid": "neuron-vectors" });
    table.appendChild(element("caption", {}, "Query " + quoted(tokens[query]) + " and key " + quoted(tokens[key]) +
      (all ? ": all " + d + " coordinates" : ": the " + NEURON_ROWS + " of " + d + " coordinates") +
      ", largest |q\u2218k| first"));
    var head = element("tr");
    ["coordinate", "query q", "key k", "q\u2218k"].forEach(function (title) {
      head.appendChild(element("th", { scope: "col" }, title));
    });
    table.appendChild(element("thead")).appendChild(head);
    var body = table.appendChild(element("tbody"));
    rowsShown.forEach(function (c) {
      var row = element("tr");
      row.appendChild(element("th", { scope: "row" }, String(c + 1)));
      row.appendChild(barCell(pair.q[c], scale.q));
      row.appendChild(barCell(pair.k[c], scale.k));
      row.appendChild(barCell(products[c], scale.p));
      body.appendChild(row);
    });
    var toggle = element("button", { type: "button", class: "explorer-top-head", "aria-expanded": String(all),
      "data-testid": "neuron-all" }, all ? "Show the top " + NEURON_ROWS : "Show all " + d);
    toggle.addEventListener("click", function () {
      self.neuronAll = !all;
      self.drawNeuron(s, query, key, pair);
      self.neuron.querySelector('[data-testid="neuron-all"]').focus();
    });
    var steps = element("ol", { class: "explorer-neuron-steps" });
    [["neuron-sum", "Sum of the products, the raw score q \u00b7 k: " + fixed(pair.score, 3) +
      (all ? "." : " (the " + NEURON_ROWS + " coordinates shown give " + fixed(partial, 3) + " of it).")],
     ["neuron-scaled", "Divided by \u221a" + d + " = " + fixed(Math.sqrt(d), 3) + ": the scaled score " + fixed(pair.scaled[key], 3) + "."],
     ["neuron-weight", "The softmax of the query\u2019s row of scaled scores (below) gives key " + quoted(tokens[key]) +
      " the weight " + fixed(weight, 3) + "."],
     ["neuron-size", "What the key adds through this head, weight \u00d7 v W\u1d3c\u2095, has the length " + fixed(pair.size, pair.sizeDecimals) +
      " (the contribution size): the weight times " + fixed(pair.length, 3) + ", the length of v W\u1d3c\u2095."]
    ].forEach(function (line) { steps.appendChild(element("li", { "data-testid": line[0] }, line[1])); });
    var softmax = element("table", { class: "explorer-neuron-table", "data-testid": "neuron-row" });
    softmax.appendChild(element("caption", {}, "The softmax row of query " + quoted(tokens[query])));
    var top = element("tr");
    ["key", "scaled score", "weight"].forEach(function (title) { top.appendChild(element("th", { scope: "col" }, title)); });
    softmax.appendChild(element("thead")).appendChild(top);
    var rows = softmax.appendChild(element("tbody"));
    tokens.forEach(function (token, j) {
      var line = element("tr", j === key ? { class: "explorer-neuron-chosen" } : {});
      line.appendChild(element("th", { scope: "row" }, token));
      line.appendChild(element("td", {}, real[j] ? fixed(pair.scaled[j], 3) : "blocked"));
      line.appendChild(element("td", {}, real[j] ? fixed(pair.weights[j], 3) : "0"));
      rows.appendChild(line);
    });
    this.neuron.replaceChildren(
      element("h4", {}, "Neuron view: layer " + (s.layer + 1) + ", head " + (s.head + 1) + ", query " +
        quoted(tokens[query]) + ", key " + quoted(tokens[key])),
      this.scrollBox(table, "The query and key vectors"), element("p", { class: "explorer-neuron-more" }), steps,
      this.scrollBox(softmax, "The softmax row"));
    this.neuron.querySelector(".explorer-neuron-more").appendChild(toggle);
    this.neuron.hidden = false;
    watchBoxes();
  };

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll(".attnlab-explorer"), function (root) {
      if (!root.explorer) { root.explorer = new Explorer(root); }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
