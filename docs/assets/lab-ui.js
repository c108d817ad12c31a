/* Attention Lab: the page side of the lab.
 *
 * Every <div class="attnlab-lab"> (printed by attnlab.site.figures.widgets.lab())
 * becomes a lab: the controls, then the selected row's steps, a line with its
 * weights and output that stays in view while a control moves (lab.css makes
 * it sticky), the full weight map with that row outlined, and the value plane
 * (value-plane.js, where the lab's markup holds its template), recomputed by
 * attnlab.compute on every input event and announced to screen readers. A lab
 * starts from the controls in its data-start attribute (JSON, the toy's
 * defaults for any left out), and its reset returns there. Several labs may
 * share a page: each has its own ids and nodes. (The checklist and the "read"
 * marks are assets/progress.js.)
 *
 * Needs assets/lab-data.js and assets/attnlab.js loaded first. Classic
 * script, no dependencies. MIT licence.
 */
(function () {
  "use strict";

  var ANNOUNCE_AFTER_MS = 500;  // a drag or a held arrow key is announced once, when it stops

  /* ---- small DOM helpers --------------------------------------------- */

  function escapeHtml(text) {
    return String(text).replace(/[&<>"']/g, function (ch) {
      return { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[ch];
    });
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

  function toggle(id, testid, label) {
    return '<div class="attnlab-toggle"><input type="checkbox" id="' + id + '" data-testid="' + testid + '">' +
      ' <label for="' + id + '">' + escapeHtml(label) + "</label></div>";
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
        '<td data-label="exp(s − max)" data-testid="exp-' + j + '"></td>' +
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
      toggle(prefix + "-causal", "causal", "Causal visibility (each query sees only itself and earlier keys)") +
      toggle(prefix + "-scale-scores", "scale-scores", "Divide the scores by √dₖ (as the paper does)") +
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
      '<th scope="col">scaled score <i>s</i><br><small data-testid="scaled-how"></small></th>' +
      '<th scope="col">visible</th>' +
      '<th scope="col">exp(<i>s</i>&nbsp;−&nbsp;max)<br><small>max: largest visible <i>s</i></small></th>' +
      '<th scope="col">weight<br><small>exp ÷ sum of exps</small></th>' +
      '<th scope="col">value</th><th scope="col">weight × value</th></tr></thead><tbody>' + stepRows +
      "</tbody></table></div></div>" +
      // a child of the lab itself, so it can stick to the foot of the screen while the controls are in view
      '<p class="attnlab-now" data-testid="now">Weights of <strong data-testid="now-token"></strong>: ' +
      tokens.map(function (token, j) {
        return escapeHtml(token) + ' <span data-testid="now-weight-' + j + '"></span>';
      }).join(", ") +
      '. Output (sum of weight × value): <strong>' + vectorSpans("output", columns(toy.w_v)) +
      "</strong></p>" +
      '<div class="attnlab-pictures"><div class="attnlab-scroll" tabindex="0" role="group" aria-label="Weight map">' +
      '<table class="attn-map" data-testid="weight-map">' +
      '<caption>Weight map: every query row under these controls; the selected row is outlined ' +
      "(the multiplier acts on it only)</caption>" +
      '<thead><tr><td class="corner">query \\ key</td>' + mapHead + "</tr></thead><tbody>" + mapRows +
      "</tbody></table></div></div>" +
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
    // the controls this lab starts from, and returns to on reset: its data-start, the toy's defaults for the rest
    var start = attnlab.controls(JSON.parse(container.getAttribute("data-start") || "{}"), toy);
    var scaleDecimals = stepDecimals(toy.ranges.query_scale[2]);
    var valueDecimals = stepDecimals(toy.ranges.value_y[2]);

    function readControls() {
      var checked = radios.filter(function (r) { return r.checked; })[0];
      return { token: checked.value, queryScale: Number(nodes["query-scale"].value),
               causal: nodes.causal.checked, valueY: Number(nodes["value-y"].value),
               scaleScores: nodes["scale-scores"].checked };
    }

    function setControls(c) {
      radios.forEach(function (r) { r.checked = r.value === c.token; });
      nodes["query-scale"].value = String(c.queryScale);
      nodes.causal.checked = c.causal;
      nodes["value-y"].value = String(c.valueY);
      nodes["scale-scores"].checked = c.scaleScores;
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
      setText(nodes["query-scale-value"], "× " + r.controls.queryScale.toFixed(scaleDecimals));
      setText(nodes["value-y-value"], r.controls.valueY.toFixed(valueDecimals));
      setText(nodes["token-name"], r.token);
      setText(nodes["now-token"], r.token);
      setText(nodes["scaled-how"], r.controls.scaleScores ? "raw ÷ √dₖ" : "raw, not divided");
      showVector("query", r.query);
      showVector("output", r.output);
      r.keys.forEach(function (key, j) {
        showVector("key-" + j, key);
        showVector("value-" + j, r.values[j]);
        showVector("part-" + j, r.values[j].map(function (v) { return r.weights[j] * v; }));
        setText(nodes["visible-" + j], r.visible[j] ? "visible" : "blocked");
        setText(nodes["score-" + j], attnlab.fmt(r.scores[j]));
        setText(nodes["scaled-" + j], attnlab.fmt(r.scaled[j]));
        setText(nodes["exp-" + j], attnlab.fmt(r.exponentials[j]));
        setText(nodes["weight-" + j], attnlab.fmt(r.weights[j]));
        setText(nodes["now-weight-" + j], r.visible[j] ? attnlab.fmt(r.weights[j]) : "blocked");
        nodes["bar-" + j].style.transform = "scaleX(" + r.weights[j].toFixed(4) + ")";
      });
      r.weightMap.forEach(function (row, i) {
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
    nodes.reset.addEventListener("click", function () { setControls(start); announce(update()); });
    setControls(start);
    update();
  }

  /** Bring every lab to life once; running the script again only starts labs added since. */
  function start() {
    var fresh = function (selector) {
      return Array.prototype.filter.call(document.querySelectorAll(selector), function (node) {
        if (node.hasAttribute("data-attnlab-ready")) { return false; }
        node.setAttribute("data-attnlab-ready", "");
        return true;
      });
    };
    var started = document.querySelectorAll(".attnlab-lab[data-attnlab-ready]").length;
    fresh(".attnlab-lab").forEach(function (container, i) { startLab(container, started + i); });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
