/* Attention Lab: the page side of the lab, the checklist and the "read" marks.
 *
 * - Every <div class="attnlab-lab"> (printed by attnlab.site.widgets.lab())
 *   becomes a lab: the controls, then the selected row's steps, the full
 *   weight map with that row outlined, and the value plane (value-plane.js),
 *   recomputed by attnlab.compute on every input event and announced to
 *   screen readers.
 * - Every <ol class="attnlab-checklist"> (widgets.checklist()) remembers its
 *   ticks, and every chapter gets a "read" checkbox under its title; both
 *   live in localStorage and have a reset. Without storage (private mode,
 *   blocked cookies) everything still works for the visit.
 *
 * Needs assets/lab-data.js and assets/attnlab.js loaded first. Classic
 * script, no dependencies. MIT licence.
 */
(function () {
  "use strict";

  var PREFIX = "attnlab:";
  var CHECKLIST_KEY = PREFIX + "checklist";
  var READ_PREFIX = PREFIX + "read:";
  var SCRIPT = document.currentScript;
  var ANNOUNCE_AFTER_MS = 500;  // a drag or a held arrow key is announced once, when it stops

  /* ---- storage that may be missing or refuse to work ---------------- */

  /** localStorage if it can be read and written, else null. */
  function openStorage() {
    try {
      var storage = window.localStorage;
      storage.setItem(PREFIX + "probe", "1");
      storage.removeItem(PREFIX + "probe");
      return storage;
    } catch (error) {
      return null;
    }
  }

  var storage = openStorage();

  function load(key) {
    try {
      return storage ? storage.getItem(key) : null;
    } catch (error) {
      return null;
    }
  }

  /** Store a value, or remove the key when value is null; failures only lose persistence. */
  function save(key, value) {
    try {
      if (!storage) { return; }
      if (value === null) { storage.removeItem(key); } else { storage.setItem(key, value); }
    } catch (error) { /* quota or policy: the page keeps working for this visit */ }
  }

  /** The keys in storage that start with prefix. */
  function keysStartingWith(prefix) {
    var found = [];
    try {
      for (var i = 0; storage && i < storage.length; i += 1) {
        var key = storage.key(i);
        if (key.indexOf(prefix) === 0) { found.push(key); }
      }
    } catch (error) { /* no storage: nothing to list */ }
    return found;
  }

  /* ---- small DOM helpers --------------------------------------------- */

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
  }

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  /** Set a node's text only when it differs, so unchanged numbers cost no layout. */
  function setText(node, text) {
    if (node.textContent !== text) { node.textContent = text; }
  }

  /** Decimals a slider readout needs to show its step exactly (0.1 → 1, 0.5 → 1, 1 → 0). */
  function stepDecimals(step) {
    var text = String(step);
    return text.indexOf(".") < 0 ? 0 : text.length - text.indexOf(".") - 1;
  }

  /* ---- the lab ------------------------------------------------------- */

  /** Markup of a row vector whose entries are spans named name-0, name-1, … */
  function vectorSpans(name, width) {
    var parts = [];
    for (var d = 0; d < width; d += 1) { parts.push('<span data-testid="' + name + "-" + d + '"></span>'); }
    return "[" + parts.join(", ") + "]";
  }

  function slider(id, testid, label, range, hint) {
    return '<div class="attnlab-slider">' +
      '<label for="' + id + '">' + escapeHtml(label) + "</label>" +
      '<input type="range" id="' + id + '" name="' + testid + '" data-testid="' + testid + '"' +
      ' min="' + range[0] + '" max="' + range[1] + '" step="' + range[2] + '" aria-describedby="' + id + '-hint">' +
      '<output for="' + id + '" aria-live="off" data-testid="' + testid + '-value"></output>' +
      '<span class="attnlab-hint" id="' + id + '-hint">' + escapeHtml(hint) + "</span></div>";
  }

  /** The lab's markup for one container; ids start with prefix so several labs can share a page. */
  function labMarkup(prefix, toy) {
    var tokens = toy.tokens;
    var columns = function (w) { return w[0].length; };  // a projection's output width
    var radios = tokens.map(function (token, i) {
      return '<label class="attnlab-choice"><input type="radio" name="' + prefix + '-token" value="' +
        escapeHtml(token) + '" data-testid="token-' + i + '"> ' + escapeHtml(token) + "</label>";
    }).join("");
    // data-label names each cell's column where a phone shows a row as a card (lab.css)
    var stepRows = tokens.map(function (token, j) {
      return '<tr><th scope="row">' + escapeHtml(token) + "</th>" +
        '<td data-label="key">' + vectorSpans("key-" + j, columns(toy.w_k)) + "</td>" +
        '<td data-label="raw score" data-testid="score-' + j + '"></td>' +
        '<td data-label="scaled score" data-testid="scaled-' + j + '"></td>' +
        '<td data-label="visible" data-testid="visible-' + j + '"></td>' +
        '<td data-label="weight" class="attnlab-weight"><span class="attnlab-bar" aria-hidden="true">' +
        '<span data-testid="bar-' + j + '"></span></span><span data-testid="weight-' + j + '"></span></td>' +
        '<td data-label="value">' + vectorSpans("value-" + j, columns(toy.w_v)) + "</td>" +
        '<td data-label="weight × value">' + vectorSpans("part-" + j, columns(toy.w_v)) + "</td></tr>";
    }).join("");
    var mapHead = tokens.map(function (t) { return '<th scope="col">' + escapeHtml(t) + "</th>"; }).join("");
    var mapRows = tokens.map(function (token, i) {
      var cells = tokens.map(function (_, j) { return '<td data-testid="map-' + i + "-" + j + '"></td>'; }).join("");
      return '<tr data-testid="map-row-' + i + '"><th scope="row">' + escapeHtml(token) + "</th>" + cells + "</tr>";
    }).join("");
    var last = tokens[tokens.length - 1];
    return '<form class="attnlab-controls" aria-label="Lab controls">' +
      '<fieldset><legend>Selected query row</legend>' + radios + "</fieldset>" +
      slider(prefix + "-query-scale", "query-scale", "Query multiplier", toy.ranges.query_scale,
             "multiplies the selected query after projection") +
      '<div class="attnlab-toggle"><input type="checkbox" id="' + prefix + '-causal" data-testid="causal">' +
      ' <label for="' + prefix + '-causal">Causal visibility (each query sees only itself and earlier keys)</label></div>' +
      slider(prefix + "-value-y", "value-y", "Second coordinate of the " + last + " value", toy.ranges.value_y,
             "overrides the third value's second coordinate") +
      '<button type="button" class="md-button" data-testid="reset">Reset the controls</button>' +
      "</form>" +
      '<div class="attnlab-readout">' +
      '<p>Query of <strong data-testid="token-name"></strong>: ' + vectorSpans("query", columns(toy.w_q)) + "</p>" +
      '<div class="attnlab-scroll" tabindex="0" role="group" aria-label="Steps for the selected query">' +
      '<table class="attnlab-steps">' +
      '<caption>Steps for the selected query, left to right</caption>' +
      '<thead><tr><th scope="col">token</th><th scope="col">key</th><th scope="col">raw score</th>' +
      '<th scope="col">scaled score<br><small>raw ÷ √d<sub>k</sub></small></th><th scope="col">visible</th>' +
      '<th scope="col">weight</th>' +
      '<th scope="col">value</th><th scope="col">weight × value</th></tr></thead><tbody>' + stepRows +
      "</tbody></table></div>" +
      '<p>Output (the sum of the weight × value column): <strong>' + vectorSpans("output", columns(toy.w_v)) +
      "</strong></p>" +
      '<div class="attnlab-pictures"><div class="attnlab-scroll" tabindex="0" role="group" aria-label="Weight map">' +
      '<table class="attn-map" data-testid="weight-map">' +
      '<caption>Weight map: every query row under these controls; the selected row is outlined ' +
      "(the multiplier acts on it only)</caption>" +
      '<thead><tr><td class="corner">query \\ key</td>' + mapHead + "</tr></thead><tbody>" + mapRows +
      "</tbody></table></div></div></div>" +
      '<p class="attnlab-sr" role="status" aria-live="polite" data-testid="announce"></p>';
  }

  /** Build one lab inside container and keep it in step with its controls. */
  function startLab(container, index) {
    var toy = globalThis.attnlab.toy();  // a clear error if assets/lab-data.js did not load
    container.insertAdjacentHTML("beforeend", labMarkup("attnlab-lab" + index, toy));
    // the plane's script comes with the lab's markup (widgets.lab), so a page without a lab does not load it
    var plane = globalThis.attnlabPlane ? attnlabPlane.start(container, "attnlab-lab" + index, toy) : null;
    var nodes = {};
    Array.prototype.forEach.call(container.querySelectorAll("[data-testid]"), function (node) {
      nodes[node.getAttribute("data-testid")] = node;
    });
    var radios = Array.prototype.slice.call(container.querySelectorAll('input[type="radio"]'));
    var scaleDecimals = stepDecimals(toy.ranges.query_scale[2]);
    var valueDecimals = stepDecimals(toy.ranges.value_y[2]);

    function readControls() {
      var checked = radios.filter(function (r) { return r.checked; })[0];
      return { token: checked.value, query_scale: Number(nodes["query-scale"].value),
               causal: nodes.causal.checked, value_y: Number(nodes["value-y"].value) };
    }

    function setControls(c) {
      radios.forEach(function (r) { r.checked = r.value === c.token; });
      nodes["query-scale"].value = String(c.query_scale);
      nodes.causal.checked = c.causal;
      nodes["value-y"].value = String(c.value_y);
    }

    function showVector(name, vector) {
      vector.forEach(function (x, d) { setText(nodes[name + "-" + d], attnlab.fmt(x)); });
    }

    var pending = null;

    /** Tell screen readers the new weights and output once the controls have been still for a moment. */
    function announce(r) {
      clearTimeout(pending);
      pending = setTimeout(function () {
        setText(nodes.announce, "Query " + r.token + ": weights " +
          toy.tokens.map(function (t, j) { return t + " " + attnlab.fmt(r.weights[j]); }).join(", ") +
          "; output " + r.output.map(function (x) { return attnlab.fmt(x); }).join(", ") + ".");
      }, ANNOUNCE_AFTER_MS);
    }

    /** Show the numbers for the current controls; returns them. */
    function update() {
      var r = attnlab.compute(readControls(), toy);
      var seen = attnlab.visibleMap(r.controls.causal, toy.tokens.length);
      setText(nodes["query-scale-value"], "× " + r.controls.query_scale.toFixed(scaleDecimals));
      setText(nodes["value-y-value"], r.controls.value_y.toFixed(valueDecimals));
      setText(nodes["token-name"], r.token);
      showVector("query", r.query);
      showVector("output", r.output);
      r.keys.forEach(function (key, j) {
        showVector("key-" + j, key);
        showVector("value-" + j, r.values[j]);
        showVector("part-" + j, r.values[j].map(function (v) { return r.weights[j] * v; }));
        setText(nodes["visible-" + j], r.visible[j] ? "visible" : "blocked");
        setText(nodes["score-" + j], attnlab.fmt(r.scores[j]));
        setText(nodes["scaled-" + j], attnlab.fmt(r.scaled[j]));
        setText(nodes["weight-" + j], attnlab.fmt(r.weights[j]));
        nodes["bar-" + j].style.transform = "scaleX(" + r.weights[j].toFixed(4) + ")";
      });
      r.weight_map.forEach(function (row, i) {
        var selected = i === r.row;
        nodes["map-row-" + i].classList.toggle("attnlab-selected", selected);
        if (selected) { nodes["map-row-" + i].setAttribute("aria-current", "true"); }
        else { nodes["map-row-" + i].removeAttribute("aria-current"); }
        row.forEach(function (w, j) {
          var cell = nodes["map-" + i + "-" + j];
          cell.classList.toggle("blocked", !seen[i][j]);
          cell.style.setProperty("--w", seen[i][j] ? w.toFixed(4) : "0");
          setText(cell, seen[i][j] ? attnlab.fmt(w) : "blocked");
        });
      });
      if (plane) { plane.draw(r); }
      return r;
    }

    // sliders, radios and the checkbox all fire input; the page's first numbers are not announced
    container.querySelector("form").addEventListener("input", function () { announce(update()); });
    nodes.reset.addEventListener("click", function () { setControls(toy.defaults); announce(update()); });
    setControls(toy.defaults);
    update();
  }

  /* ---- checklist and read marks -------------------------------------- */

  function checkedSteps() {
    try {
      var steps = JSON.parse(load(CHECKLIST_KEY) || "[]");
      return Array.isArray(steps) ? steps : [];
    } catch (error) {
      return [];
    }
  }

  function allStepBoxes() {
    return Array.prototype.slice.call(document.querySelectorAll(".attnlab-checklist input[data-step]"));
  }

  /** Tick boxes from storage, remember every change, and add the reset buttons. */
  function startChecklist(list) {
    var boxes = Array.prototype.slice.call(list.querySelectorAll("input[data-step]"));
    var steps = checkedSteps();
    boxes.forEach(function (box) {
      box.checked = steps.indexOf(box.getAttribute("data-step")) >= 0;
      box.addEventListener("change", function () {
        var step = box.getAttribute("data-step");
        allStepBoxes().forEach(function (other) {
          if (other.getAttribute("data-step") === step) { other.checked = box.checked; }
        });
        var ticked = allStepBoxes().filter(function (b) { return b.checked; })
          .map(function (b) { return b.getAttribute("data-step"); });
        save(CHECKLIST_KEY, JSON.stringify(ticked.filter(function (s, i) { return ticked.indexOf(s) === i; })));
      });
    });
    var tools = element("p", { "class": "attnlab-progress" });
    var clearSteps = element("button", { type: "button", "class": "md-button", "data-testid": "checklist-reset" },
                             "Clear the checklist");
    clearSteps.addEventListener("click", function () {
      allStepBoxes().forEach(function (b) { b.checked = false; });
      save(CHECKLIST_KEY, null);
    });
    var clearRead = element("button", { type: "button", "class": "md-button", "data-testid": "read-reset" },
                            "Clear every chapter's read mark");
    clearRead.addEventListener("click", function () {
      keysStartingWith(READ_PREFIX).forEach(function (key) { save(key, null); });
      var mark = document.querySelector('[data-testid="read-mark"]');
      if (mark) { mark.checked = false; }
    });
    tools.appendChild(clearSteps);
    tools.appendChild(document.createTextNode(" "));
    tools.appendChild(clearRead);
    list.parentNode.insertBefore(tools, list.nextSibling);
    if (!storage) {
      tools.appendChild(element("span", { "class": "attnlab-hint", "data-testid": "storage-note" },
        " This browser does not let the page store progress, so ticks last only while the page is open."));
    }
  }

  /** This page's path relative to the site root (the folder above assets/), stable on file:// and http. */
  function pageKey() {
    var root = new URL("..", SCRIPT.src).href;
    var here = location.href.split("#")[0].split("?")[0];
    var path = here.indexOf(root) === 0 ? here.slice(root.length) : location.pathname;
    return READ_PREFIX + (path || "index.html");
  }

  /** A "read" checkbox under the chapter title, remembered per page. */
  function startReadMark() {
    var title = document.querySelector(".md-content h1");
    if (!title) { return; }
    var key = pageKey();
    var mark = element("p", { "class": "attnlab-read" });
    var box = element("input", { type: "checkbox", id: "attnlab-read-mark", "data-testid": "read-mark" });
    box.checked = load(key) === "1";
    box.addEventListener("change", function () { save(key, box.checked ? "1" : null); });
    mark.appendChild(box);
    mark.appendChild(document.createTextNode(" "));
    mark.appendChild(element("label", { "for": "attnlab-read-mark" }, "I have read this chapter"));
    title.parentNode.insertBefore(mark, title.nextSibling);
  }

  /** Bring every widget to life once; running the script again only starts widgets added since. */
  function start() {
    if (!document.querySelector('[data-testid="read-mark"]')) { startReadMark(); }
    var fresh = function (selector) {
      return Array.prototype.filter.call(document.querySelectorAll(selector), function (node) {
        if (node.hasAttribute("data-attnlab-ready")) { return false; }
        node.setAttribute("data-attnlab-ready", "");
        return true;
      });
    };
    fresh(".attnlab-checklist").forEach(startChecklist);
    var started = document.querySelectorAll(".attnlab-lab[data-attnlab-ready]").length;
    fresh(".attnlab-lab").forEach(function (container, i) { startLab(container, started + i); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
