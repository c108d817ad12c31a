/* Attention Lab: the small decoder's controls on its chapter (needs decoder.js before it).
 *
 * "Load the model" loads assets/decoder-model.js (a script element: works from file://) and checks its digest.
 * Then: type a prompt; Step appends one token, computed against the key/value cache only; Play steps eight
 * times; the newest query's attention row in every head, the cache's rows per layer and the five most probable
 * next tokens are shown after every step. Temperature and seed set the sampler (Mulberry32, as in Python);
 * a head's switch removes its output and starts again from the prompt, saying what changed.
 */
(function (root) {
  "use strict";
  var decoder = root.attnlab.decoder;

  function fixed(x) { return x.toFixed(3); }

  function setUp(box) {
    var $ = function (name) { return box.querySelector("[data-" + name + "]"); };
    var model = null, state = null;

    function ablated() {
      return Array.prototype.filter.call(box.querySelectorAll("[data-head]"), function (c) { return c.checked; })
        .map(function (c) { return c.getAttribute("data-head").split(",").map(Number); });
    }

    /** One switch per head, "L1 H1" … (layers and heads counted from 1; data-head "layer,head" from 0). */
    function switches(model) {
      for (var l = 0; l < model.layers; l++) {
        for (var h = 0; h < model.heads; h++) {
          var label = root.document.createElement("label"), input = root.document.createElement("input");
          input.type = "checkbox";
          input.setAttribute("data-head", l + "," + h);
          input.addEventListener("change", toggle);
          label.append(input, " L" + (l + 1) + " H" + (h + 1) + " ");
          $("heads").appendChild(label);
        }
      }
    }

    function topFive(logits, temperature) {
      var p = model.pick(logits, temperature > 0 ? temperature : 1, 0.5).probabilities;
      return p.map(function (v, i) { return [i, v]; }).sort(function (a, b) { return b[1] - a[1]; }).slice(0, 5);
    }

    function show(run) {
      var temperature = Number($("temperature").value);
      var logits = run.logits[run.logits.length - 1];
      $("text").textContent = state.text;
      $("cache").textContent = "Key/value cache: " + run.cache.layers.map(function (l, i) {
        return "layer " + (i + 1) + " holds " + l.keys.length + " rows";
      }).join(", ") + " (one row more per layer at each step).";
      $("bars").innerHTML = "";
      topFive(logits, temperature).forEach(function (pair) {
        var row = document.createElement("div"), label = document.createElement("span"), bar = document.createElement("span");
        row.className = "decoder-bar";
        label.textContent = JSON.stringify(model.vocabulary[pair[0]]) + " " + fixed(pair[1]);
        bar.style.setProperty("--p", pair[1]);
        row.setAttribute("data-token", model.vocabulary[pair[0]]);
        row.setAttribute("data-p", pair[1]);
        row.appendChild(label); row.appendChild(bar);
        $("bars").appendChild(row);
      });
      var keys = state.text.length, first = Math.max(0, keys - 12);
      var table = "<table class=\"attn-map decoder-rows\"><caption>The newest query's weights on the last " +
        (keys - first) + " keys, in every head</caption><tr><th scope=\"col\">head</th>";
      for (var k = first; k < keys; k++) { table += "<th scope=\"col\">" + JSON.stringify(state.text[k]) + "</th>"; }
      table += "</tr>";
      run.attentions.forEach(function (layer, l) {
        layer.forEach(function (rows, h) {
          var row = rows[rows.length - 1];
          table += "<tr><th scope=\"row\">L" + (l + 1) + " H" + (h + 1) + "</th>";
          for (var k2 = first; k2 < keys; k2++) { table += "<td style=\"--w: " + row[k2] + "\">" + fixed(row[k2]) + "</td>"; }
          table += "</tr>";
        });
      });
      $("rows").innerHTML = table + "</table>";
    }

    function start() {
      var prompt = $("prompt").value;
      try {
        state = { text: prompt, draw: decoder.mulberry32(Number($("seed").value) >>> 0), ablate: ablated() };
        state.run = model.forward(prompt, state.ablate);
        $("status").textContent = "";
        show(state.run);
      } catch (error) { $("status").textContent = error.message; }
    }

    function step() {
      if (!state) { start(); }
      if (!state || !state.run) { return; }
      if (state.text.length >= model.context) { $("status").textContent = "The context is full (" + model.context + " characters)."; return; }
      var logits = state.run.logits[state.run.logits.length - 1];
      var chosen = model.pick(logits, Number($("temperature").value), state.draw());
      state.text += model.vocabulary[chosen.id];
      state.run = model.step(state.run.cache, chosen.id, state.ablate);
      show(state.run);
    }

    function toggle() {
      var before = state && state.run ? topFive(model.forward($("prompt").value).logits.slice(-1)[0], 1)[0] : null;
      start();
      if (before && state.run) {
        var after = topFive(state.run.logits[state.run.logits.length - 1], 1)[0];
        $("status").textContent = "Started again from the prompt. With every head, the next token would be " +
          JSON.stringify(model.vocabulary[before[0]]) + " (" + fixed(before[1]) + "); now it is " +
          JSON.stringify(model.vocabulary[after[0]]) + " (" + fixed(after[1]) + ").";
      }
    }

    $("load").addEventListener("click", function () {
      $("status").textContent = "Loading and checking the weights…";
      decoder.load().then(function (loaded) {
        model = loaded;
        switches(model);
        $("load").hidden = true;
        $("controls").hidden = false;
        start();
      }, function (error) { $("status").textContent = error.message; });
    });
    $("step").addEventListener("click", step);
    $("play").addEventListener("click", function () { for (var i = 0; i < 8; i++) { step(); } });
    $("restart").addEventListener("click", start);
    $("prompt").addEventListener("change", start);
    $("seed").addEventListener("change", start);
    $("temperature").addEventListener("input", function () {
      $("temperature-value").textContent = Number($("temperature").value).toFixed(1);
      if (state && state.run) { show(state.run); }
    });
  }

  Array.prototype.forEach.call(root.document.querySelectorAll("[data-decoder-lab]"), setUp);
})(globalThis);
