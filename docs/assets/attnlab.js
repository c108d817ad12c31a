/* Attention Lab: the toy LAB-001 computed in the browser (and under Node).
 *
 * The same calculation as attnlab.lab.compute in Python, step by step:
 * project the rows, scale the selected query, take raw scores Q Kᵀ, scale
 * them by 1/√d_k (unless the scaleScores switch is off), decide which keys
 * are visible, turn visible scores into weights with a masked stable
 * softmax (exp(s − max) over the visible keys, divided by their sum), and
 * mix the values into the output.
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

  /** A value as a refusal shows it: a number as String(x) writes it (NaN, Infinity), a BigInt as 2n, JSON
   *  where it is JSON data, anything else as Object.prototype.toString writes it. */
  function shown(value) {
    if (typeof value === "number") { return String(value); }
    if (typeof value === "bigint") { return value + "n"; }
    var text;
    try { text = JSON.stringify(value); } catch (error) { text = undefined; }  // a BigInt inside, a cycle
    return typeof text === "string" ? text : Object.prototype.toString.call(value);
  }

  /** A control that must be a finite number: booleans, strings and BigInts are refused. */
  function finiteNumber(name, value) {
    if (typeof value !== "number") {
      throw new TypeError(name + " must be a number, got " + shown(value));
    }
    if (!isFinite(value)) {
      throw new RangeError(name + " must be a finite number, got " + shown(value));
    }
    return value;
  }

  /** A control's JavaScript name: the toy's name (Python's) in camelCase, query_scale → queryScale. */
  function camel(name) {
    return name.replace(/_([a-z])/g, function (_, letter) { return letter.toUpperCase(); });
  }

  /** True for an object written as {...} or JSON.parse'd: not an array, Map, Date, RegExp or class
   *  instance, and with no prototype of its own to inherit controls from. */
  function plainObject(value) {
    if (value === null || typeof value !== "object" || Object.prototype.toString.call(value) !== "[object Object]") {
      return false;
    }
    var prototype = Object.getPrototypeOf(value);
    return prototype === null || Object.getPrototypeOf(prototype) === null;
  }

  /** Validate the five controls, named in camelCase (token, queryScale, causal, valueY, scaleScores) or by
   *  their snake_case aliases (query_scale, value_y, scale_scores, the names Python uses); missing ones take
   *  the toy's defaults, unknown ones are refused with the list of known ones, and so is a control given under
   *  both names. The names come from the keys of the toy's defaults (attnlab.lab.DEFAULTS), not from a list of
   *  our own. Only the object's own keys count. Returns the controls under their camelCase names. */
  function controls(given, toy) {
    var data = toyOrPage(toy);
    var names = Object.keys(data.defaults);  // the toy's names: snake_case
    var known = names.map(camel);
    var asked = given === undefined ? {} : given;
    if (!plainObject(asked)) {
      throw new TypeError("controls must be a plain object with keys " + known.join(", ") + ", got " +
                          Object.prototype.toString.call(asked));
    }
    var unknown = Object.keys(asked).filter(function (k) { return known.indexOf(k) < 0 && names.indexOf(k) < 0; });
    if (unknown.length) {
      throw new RangeError("unknown control" + (unknown.length > 1 ? "s " : " ") + unknown.map(shown).join(", ") +
                           "; the known controls are " + known.join(", ") +
                           " (snake_case aliases such as query_scale work too)");
    }
    var c = {};
    names.forEach(function (name, i) {
      var spellings = [known[i], name].filter(function (k, j, all) {
        return all.indexOf(k) === j && Object.prototype.hasOwnProperty.call(asked, k);
      });
      if (spellings.length > 1) {
        throw new TypeError(known[i] + " is given twice, as " + spellings.join(" and ") + ": give it once");
      }
      c[known[i]] = spellings.length ? asked[spellings[0]] : data.defaults[name];
    });
    if (typeof c.token !== "string" || data.tokens.indexOf(c.token) < 0) {
      throw new RangeError("token must be one of " + data.tokens.join(", ") + "; got " + shown(c.token));
    }
    ["causal", "scaleScores"].forEach(function (name) {
      if (typeof c[name] !== "boolean") {
        throw new TypeError(name + " must be true or false, got " + shown(c[name]));
      }
    });
    return {
      token: c.token,
      queryScale: finiteNumber("queryScale", c.queryScale),
      causal: c.causal,
      valueY: finiteNumber("valueY", c.valueY),
      scaleScores: c.scaleScores,
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

  /** exp(s − max) of each visible score of one row, the maximum taken over the visible ones; 0 for a
   *  blocked key: the softmax's numerators (attnlab.attention.shifted_exponentials in Python). */
  function shiftedExponentials(scaled, visible) {
    var peak = -Infinity;
    scaled.forEach(function (s, j) { if (visible[j] && s > peak) { peak = s; } });
    return scaled.map(function (s, j) { return visible[j] ? Math.exp(s - peak) : 0; });
  }

  /** Masked stable softmax of one row: each key's shifted exponential over their sum; blocked keys get 0. */
  function softmax(exp) {
    var total = exp.reduce(function (a, b) { return a + b; }, 0);
    return exp.map(function (e) { return e / total; });
  }

  /** Weighted sum of value rows, output = Σ_j weights[j] · values[j], as attnlab.mix. */
  function mix(weights, values) {
    return values[0].map(function (_, d) {
      return weights.reduce(function (total, w, j) { return total + w * values[j][d]; }, 0);
    });
  }

  /** n×n visibility: with causal on, key j is visible to query i iff j <= i; else every key is.
   *  causal must be a boolean and n a whole number of at least 1, as for attnlab.causal in Python. */
  function visibleMap(causal, n) {
    if (typeof causal !== "boolean") {
      throw new TypeError("causal must be true or false, got " + shown(causal));
    }
    if (typeof n !== "number" || !Number.isInteger(n)) {
      throw new TypeError("n must be an integer, got " + shown(n));
    }
    if (n < 1) {
      throw new RangeError("n must be at least 1, got " + shown(n));
    }
    var rows = [];
    for (var i = 0; i < n; i += 1) {
      rows.push([]);
      for (var j = 0; j < n; j += 1) { rows[i].push(!causal || j <= i); }
    }
    return rows;
  }

  /** Every step for one query row against all keys (the LabResult fields of one row); the scores are
   *  divided by √d_k unless divide is false. */
  function attendRow(query, keys, values, visible, divide) {
    var scores = keys.map(function (k) { return dot(query, k); });
    var root = Math.sqrt(keys[0].length);
    var scaled = divide === false ? scores.slice() : scores.map(function (s) { return s / root; });
    var exponentials = shiftedExponentials(scaled, visible);
    var weights = softmax(exponentials);
    return { scores: scores, scaled: scaled, visible: visible, exponentials: exponentials, weights: weights,
             output: mix(weights, values) };
  }

  /** Rows of finite numbers, each `width` long (or as long as the first); refused naming `name` otherwise. */
  function finiteRows(name, rows, width) {
    if (!Array.isArray(rows) || !rows.length || !rows.every(Array.isArray)) {
      throw new TypeError(name + " must be a non-empty array of rows, got " + shown(rows));
    }
    var wanted = width === undefined ? rows[0].length : width;
    rows.forEach(function (row, i) {
      if (row.length !== wanted || !row.every(function (x) { return typeof x === "number" && isFinite(x); })) {
        throw new RangeError(name + "[" + i + "] must be " + wanted + " finite numbers, got " + shown(row));
      }
    });
    return rows;
  }

  /** One query against every key, all visible (WE-002's calculation): scores, scaled scores, weights, output;
   *  the numbers of attnlab.attention(query, keys, values) in Python. */
  function attend(query, keys, values) {
    var q = finiteRows("query", [query])[0];
    var k = finiteRows("keys", keys, q.length);
    var v = finiteRows("values", values);
    if (v.length !== k.length) {
      throw new RangeError("values has " + v.length + " rows but keys has " + k.length + ": give one value per key");
    }
    var row = attendRow(q, k, v, k.map(function () { return true; }));
    if (!row.scores.every(isFinite)) {
      throw new RangeError("the scores of query and keys overflow the largest number JavaScript can hold: " +
                           "scale them down");
    }
    return { scores: row.scores, scaled: row.scaled, weights: row.weights, output: row.output };
  }

  /** Run the toy under the given controls: the numbers of attnlab.lab.compute(...).to_dict() in Python, under
   *  JavaScript's names (a field of two words in camelCase: weightMap, controls.queryScale). */
  function compute(given, toy) {
    var data = toyOrPage(toy);
    var c = controls(given, data);
    var row = data.tokens.indexOf(c.token);
    var queries = project(data.x, data.w_q);
    queries[row] = queries[row].map(function (q) { return q * c.queryScale; });
    var keys = project(data.x, data.w_k);
    var values = project(data.x, data.w_v);
    values[2][1] = c.valueY;
    var seen = visibleMap(c.causal, keys.length);
    var rows = queries.map(function (query, i) { return attendRow(query, keys, values, seen[i], c.scaleScores); });
    if (!rows.every(function (r) { return r.scores.every(isFinite); })) {  // only the scaled query can overflow
      throw new RangeError("queryScale " + shown(c.queryScale) + " is too large: the toy's scores overflow " +
                           "the largest number JavaScript can hold");
    }
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
      exponentials: picked.exponentials,
      weights: picked.weights,
      output: picked.output,
      weightMap: rows.map(function (r) { return r.weights; }),
    };
  }

  var MAX_DECIMALS = 20;  // attnlab.text.MAX_DECIMALS: up to here the halfway test below is exact

  /** A finite number with 0 to 20 fixed decimals, as attnlab.text.fmt prints it: never "-0.000", every
   *  digit of a large number written out (toFixed switches to "1e+21"), and a number exactly halfway
   *  between two roundings goes to the even one, as Python's format does (toFixed would round 0.0625 up
   *  to 0.063; Python prints 0.062). NaN, infinity and decimals outside 0 to 20 are refused. */
  function fmt(x, decimals) {
    var places = decimals === undefined ? 3 : decimals;
    finiteNumber("x", x);
    if (typeof places !== "number" || !Number.isInteger(places)) {
      throw new TypeError("decimals must be a whole number, got " + shown(places));
    }
    if (places < 0 || places > MAX_DECIMALS) {
      throw new RangeError("decimals must be from 0 to " + MAX_DECIMALS + ", got " + shown(places));
    }
    if (Math.abs(x) >= 1e21) {  // a whole number: its exact digits, then zeros
      return BigInt(x).toString() + (places ? "." + "0".repeat(places) : "");
    }
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

  var api = { compute: compute, controls: controls, attend: attend, visibleMap: visibleMap, fmt: fmt,
              withToy: withToy, toy: toyOrPage };
  root.attnlab = root.attnlab || {};  // shared with wordpiece.js, minilm.js and explorer-model.js
  Object.keys(api).forEach(function (name) { root.attnlab[name] = api[name]; });
  if (typeof exports === "object") {
    Object.keys(api).forEach(function (name) { exports[name] = api[name]; });
  }
})(typeof globalThis !== "undefined" ? globalThis : this);
