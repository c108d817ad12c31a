/* Attention Lab: the toy LAB-001 computed in the browser (and under Node).
 *
 * The same calculation as attnlab.lab.compute in Python, step by step:
 * project the rows, scale the selected query, take raw scores Q Kᵀ, scale
 * them by 1/√d_k, decide which keys are visible, turn visible scores into
 * weights with a masked stable softmax, and mix the values into the output.
 *
 * The toy's constants are not written here: they come from the data the
 * attnlab package emits at build time (assets/lab-data.js sets
 * globalThis.ATTNLAB_TOY), or from a toy passed in by the caller
 * (attnlab.withToy(data).compute(...) under Node).
 *
 * A classic script with no dependencies: it runs from file://, where
 * Chromium refuses module scripts. MIT licence, like the rest of the code.
 */
(function (root) {
  "use strict";

  /** The toy data to use: the one given, else the one the page loaded. */
  function toyOrPage(toy) {
    var data = toy === undefined ? root.ATTNLAB_TOY : toy;
    if (!data || !Array.isArray(data.tokens) || !data.defaults) {
      throw new Error("toy data is missing: load assets/lab-data.js first or pass the toy " +
                      "from attnlab.lab.toy_data()");
    }
    return data;
  }

  /** A control that must be a finite number (booleans and strings refused, as in Python). */
  function finiteNumber(name, value) {
    if (typeof value !== "number") {
      throw new TypeError(name + " must be a real number, got " + typeof value + " " + JSON.stringify(value));
    }
    if (!isFinite(value)) {
      throw new Error(name + " must be finite, got " + value);
    }
    return value;
  }

  /** Validate the four controls; missing keys take the toy's defaults, unknown keys are refused.
   *  The control names are the keys of the toy's defaults (attnlab.lab.DEFAULTS), not a list of our own. */
  function controls(given, toy) {
    var data = toyOrPage(toy);
    var names = Object.keys(data.defaults);
    var asked = given === undefined ? {} : given;
    if (asked === null || typeof asked !== "object" || Array.isArray(asked)) {
      throw new TypeError("controls must be an object with keys " + names.join(", "));
    }
    var unknown = Object.keys(asked).filter(function (k) { return names.indexOf(k) < 0; }).sort();
    if (unknown.length) {
      throw new Error("unknown control(s) " + JSON.stringify(unknown) + "; known: " +
                      JSON.stringify(names.slice().sort()));
    }
    var c = {};
    names.forEach(function (k) { c[k] = k in asked ? asked[k] : data.defaults[k]; });
    if (data.tokens.indexOf(c.token) < 0) {
      throw new Error("token must be one of " + JSON.stringify(data.tokens) + ", got " + JSON.stringify(c.token));
    }
    if (typeof c.causal !== "boolean") {
      throw new TypeError("causal must be true or false, got " + JSON.stringify(c.causal));
    }
    return {
      token: c.token,
      query_scale: finiteNumber("query_scale", c.query_scale),
      causal: c.causal,
      value_y: finiteNumber("value_y", c.value_y),
    };
  }

  /** x @ w for row lists: each row of x mapped by the same matrix w. */
  function project(x, w) {
    return x.map(function (row) {
      return w[0].map(function (_, j) {
        return row.reduce(function (sum, xi, i) { return sum + xi * w[i][j]; }, 0);
      });
    });
  }

  function dot(a, b) {
    return a.reduce(function (sum, ai, i) { return sum + ai * b[i]; }, 0);
  }

  /** Masked stable softmax of one row: subtract the visible maximum; blocked keys get exactly 0. */
  function softmax(scaled, visible) {
    var peak = -Infinity;
    scaled.forEach(function (s, j) { if (visible[j] && s > peak) { peak = s; } });
    var exp = scaled.map(function (s, j) { return visible[j] ? Math.exp(s - peak) : 0; });
    var total = exp.reduce(function (a, b) { return a + b; }, 0);
    return exp.map(function (e) { return e / total; });
  }

  /** Weighted sum of value rows: output = Σ_j weights[j] · values[j]. */
  function mix(weights, values) {
    return values[0].map(function (_, d) {
      return weights.reduce(function (sum, w, j) { return sum + w * values[j][d]; }, 0);
    });
  }

  /** n×n visibility: with causal on, key j is visible to query i iff j <= i; else every key is. */
  function visibleMap(causal, n) {
    var rows = [];
    for (var i = 0; i < n; i += 1) {
      rows.push([]);
      for (var j = 0; j < n; j += 1) { rows[i].push(!causal || j <= i); }
    }
    return rows;
  }

  /** Every step for one query row against all keys (the LabResult fields of one row). */
  function attendRow(query, keys, values, visible) {
    var scores = keys.map(function (k) { return dot(query, k); });
    if (!scores.every(isFinite)) {
      throw new Error("scores overflowed float64: q and k entries are too large");
    }
    var scaled = scores.map(function (s) { return s / Math.sqrt(keys[0].length); });
    var weights = softmax(scaled, visible);
    return { scores: scores, scaled: scaled, visible: visible, weights: weights, output: mix(weights, values) };
  }

  /** Run the toy under the given controls; same field names and numbers as attnlab.lab.compute(...).to_dict(). */
  function compute(given, toy) {
    var data = toyOrPage(toy);
    var c = controls(given, data);
    var row = data.tokens.indexOf(c.token);
    var queries = project(data.x, data.w_q);
    queries[row] = queries[row].map(function (q) { return q * c.query_scale; });
    var keys = project(data.x, data.w_k);
    var values = project(data.x, data.w_v);
    values[2][1] = c.value_y;
    var seen = visibleMap(c.causal, keys.length);
    var rows = queries.map(function (query, i) { return attendRow(query, keys, values, seen[i]); });
    var picked = rows[row];
    return {
      controls: c,
      token: c.token,
      row: row,
      query: queries[row],
      keys: keys,
      values: values,
      scores: picked.scores,
      scaled: picked.scaled,
      visible: picked.visible,
      weights: picked.weights,
      output: picked.output,
      weight_map: rows.map(function (r) { return r.weights; }),
    };
  }

  /** A number with fixed decimals, as attnlab.text.fmt prints it: never "-0.000", and a number
   *  exactly halfway between two roundings goes to the even one, as Python's format does
   *  (toFixed would round 0.0625 up to 0.063; Python prints 0.062). */
  function fmt(x, decimals) {
    var places = decimals === undefined ? 3 : decimals;
    var text = x.toFixed(places);
    var exact = Math.abs(x).toFixed(100);  // the double's every digit: a halfway one ends long before 100
    var point = exact.indexOf(".");
    var kept = exact.slice(0, places ? point + 1 + places : point);
    if (/^50*$/.test(exact.slice(point + 1 + places)) && /[02468]$/.test(kept)) {
      text = (x < 0 ? "-" : "") + kept;
    }
    return text.charAt(0) === "-" && Number(text) === 0 ? text.slice(1) : text;
  }

  /** The same functions bound to one toy (for Node, where no page loaded the data). */
  function withToy(toy) {
    var data = toyOrPage(toy);
    return {
      compute: function (given) { return compute(given, data); },
      controls: function (given) { return controls(given, data); },
    };
  }

  var api = { compute: compute, controls: controls, visibleMap: visibleMap, fmt: fmt, withToy: withToy,
              toy: toyOrPage };
  root.attnlab = api;
  if (typeof exports === "object") {
    Object.keys(api).forEach(function (name) { exports[name] = api[name]; });
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
