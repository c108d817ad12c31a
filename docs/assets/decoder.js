/* Attention Lab: the guide's small decoder run in the browser (and under Node), the same maths as attnlab.decoder.
 *
 * A classic script: it adds attnlab.decoder to globalThis.attnlab (never replacing it); Node requires it. Its matrix
 * products are kernel.js's (in float64), which a page loads first.
 * fromFiles(safetensorsBytes, vocabulary, config) builds the model from the committed files:
 *   model.forward(text)                   -> {tokens, ids, logits, attentions[layer][head][query][key], cache}
 *   model.step(cache, id)                 -> the same for one new token after the cached ones (nothing recomputed)
 *   model.generate(prompt, {steps, temperature, seed, ablate}) -> {text, ids, probabilities}
 * ablate is a list of [layer, head] pairs whose output is zeroed. Sampling uses mulberry32(seed), the
 * generator attnlab.decoder.mulberry32 implements: the same seed gives the same tokens in both.
 */
(function (root) {
  "use strict";

  function readSafetensors(bytes) {
    var view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    var length = Number(view.getBigUint64(0, true));
    var header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + length)));
    var tensors = {};
    Object.keys(header).forEach(function (name) {
      if (name === "__metadata__") { return; }
      var entry = header[name];
      if (entry.dtype !== "F32") { throw new Error("decoder: tensor " + name + " is " + entry.dtype + ", not F32"); }
      var start = 8 + length + entry.data_offsets[0], count = (entry.data_offsets[1] - entry.data_offsets[0]) / 4;
      var values = new Float64Array(count);
      for (var i = 0; i < count; i++) { values[i] = view.getFloat32(start + 4 * i, true); }
      tensors[name] = { shape: entry.shape, data: values };
    });
    return tensors;
  }

  function mulberry32(seed) {
    var state = seed >>> 0;
    return function () {
      state = (state + 0x6D2B79F5) >>> 0;
      var t = Math.imul(state ^ (state >>> 15), state | 1) >>> 0;
      t = (t ^ ((t + (Math.imul(t ^ (t >>> 7), t | 61) >>> 0)) >>> 0)) >>> 0;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  /** The page's matrix products (kernel.js: loaded before this script on a page, required under Node). */
  function kernel() {
    var api = (root.attnlab && root.attnlab.kernel) || (typeof require === "function" ? require("./kernel.js") : null);
    if (!api) { throw new Error("decoder.js needs kernel.js, loaded before it"); }
    return api.create(0);
  }

  function layerNorm(rows, n, width, gain, bias, eps) {
    var result = new Float64Array(n * width);
    for (var i = 0; i < n; i++) {
      var mean = 0, variance = 0, k;
      for (k = 0; k < width; k++) { mean += rows[i * width + k]; }
      mean /= width;
      for (k = 0; k < width; k++) { var d = rows[i * width + k] - mean; variance += d * d; }
      var scale = 1 / Math.sqrt(variance / width + eps);
      for (k = 0; k < width; k++) { result[i * width + k] = (rows[i * width + k] - mean) * scale * gain[k] + bias[k]; }
    }
    return result;
  }

  function geluTanh(x) { return 0.5 * x * (1 + Math.tanh(Math.sqrt(2 / Math.PI) * (x + 0.044715 * x * x * x))); }

  function softmax(values) {
    var top = Math.max.apply(null, values), sum = 0;
    var result = values.map(function (v) { var e = Math.exp(v - top); sum += e; return e; });
    return result.map(function (e) { return e / sum; });
  }

  function fromFiles(bytes, vocabulary, config) {
    var tensors = readSafetensors(bytes);
    var layers = config.n_layer, heads = config.n_head, width = config.n_embd, context = config.n_positions;
    var d = width / heads, eps = config.layer_norm_epsilon, size = vocabulary.length;
    var w = function (name) { return tensors[name].data; };
    var products = kernel(), wte = w("transformer.wte.weight"), unembed = new Float64Array(width * size);
    for (var t = 0; t < size * width; t++) { unembed[(t % width) * size + Math.floor(t / width)] = wte[t]; }
    // rows (n × k) @ weight (k × out) + bias, in float64 (GPT-2 stores each weight input by output)
    var affine = function (rows, n, k, weight, bias, out) {
      var result = products.product({ x: rows, n: n, k: k, b: weight, out: out });
      for (var i = 0; i < result.length; i++) { result[i] += bias[i % out]; }
      return result;
    };

    function encode(text) {
      return Array.from(text).map(function (c, place) {
        var id = vocabulary.indexOf(c);
        if (id < 0) { throw new Error("character " + JSON.stringify(c) + " at position " + place + " is not in the decoder's vocabulary"); }
        return id;
      });
    }

    function emptyCache() {
      var none = []; for (var l = 0; l < layers; l++) { none.push({ keys: [], values: [] }); }
      return { layers: none, length: 0 };
    }

    // The new tokens `ids` after the cache's positions; keys[l][h] is a list of rows (one per position).
    function extend(cache, ids, ablate) {
      var start = cache.length, count = ids.length;
      if (count === 0 || start + count > context) { throw new Error(start + " cached and " + count + " new tokens: the decoder takes 1 to " + context + " in all"); }
      var off = function (l, h) { return (ablate || []).some(function (p) { return p[0] === l && p[1] === h; }); };
      var x = new Float64Array(count * width), wpe = w("transformer.wpe.weight");
      for (var i = 0; i < count; i++) {
        for (var k = 0; k < width; k++) { x[i * width + k] = wte[ids[i] * width + k] + wpe[(start + i) * width + k]; }
      }
      var kept = [], maps = [];
      for (var l = 0; l < layers; l++) {
        var name = "transformer.h." + l + ".";
        var h = layerNorm(x, count, width, w(name + "ln_1.weight"), w(name + "ln_1.bias"), eps);
        var qkv = affine(h, count, width, w(name + "attn.c_attn.weight"), w(name + "attn.c_attn.bias"), 3 * width);
        var keys = cache.layers[l].keys.slice(), values = cache.layers[l].values.slice();   // per position: width numbers
        for (i = 0; i < count; i++) {
          keys.push(qkv.slice(i * 3 * width + width, i * 3 * width + 2 * width));
          values.push(qkv.slice(i * 3 * width + 2 * width, i * 3 * width + 3 * width));
        }
        var mixed = new Float64Array(count * width), layerMaps = [];
        for (var head = 0; head < heads; head++) {
          var rows = [];
          for (i = 0; i < count; i++) {
            var seen = start + i + 1, scores = new Array(seen);
            for (var j = 0; j < seen; j++) {
              var dot = 0;
              for (k = 0; k < d; k++) { dot += qkv[i * 3 * width + head * d + k] * keys[j][head * d + k]; }
              scores[j] = dot / Math.sqrt(d);
            }
            var weights = softmax(scores);
            for (k = 0; k < d && !off(l, head); k++) {
              var sum = 0;
              for (j = 0; j < seen; j++) { sum += weights[j] * values[j][head * d + k]; }
              mixed[i * width + head * d + k] = sum;
            }
            rows.push(weights);
          }
          layerMaps.push(rows);
        }
        var attended = affine(mixed, count, width, w(name + "attn.c_proj.weight"), w(name + "attn.c_proj.bias"), width);
        for (k = 0; k < x.length; k++) { x[k] += attended[k]; }
        h = layerNorm(x, count, width, w(name + "ln_2.weight"), w(name + "ln_2.bias"), eps);
        var hidden = affine(h, count, width, w(name + "mlp.c_fc.weight"), w(name + "mlp.c_fc.bias"), 4 * width).map(geluTanh);
        var out = affine(hidden, count, 4 * width, w(name + "mlp.c_proj.weight"), w(name + "mlp.c_proj.bias"), width);
        for (k = 0; k < x.length; k++) { x[k] += out[k]; }
        kept.push({ keys: keys, values: values });
        maps.push(layerMaps);
      }
      var final = layerNorm(x, count, width, w("transformer.ln_f.weight"), w("transformer.ln_f.bias"), eps);
      var all = products.product({ x: final, n: count, k: width, b: unembed, out: size }), logits = [];  // tied to wte
      for (i = 0; i < count; i++) { logits.push(Array.from(all.subarray(i * size, (i + 1) * size))); }
      return { tokens: ids.map(function (id) { return vocabulary[id]; }), ids: ids, logits: logits, attentions: maps,
               cache: { layers: kept, length: start + count } };
    }

    function pick(logits, temperature, draw) {
      if (!(temperature >= 0) || !isFinite(temperature)) { throw new Error("temperature must be a finite number ≥ 0, got " + temperature); }
      if (temperature === 0) {
        var best = logits.indexOf(Math.max.apply(null, logits));
        return { id: best, probabilities: logits.map(function (_, i) { return i === best ? 1 : 0; }) };
      }
      var probabilities = softmax(logits.map(function (v) { return v / temperature; })), total = 0;
      for (var i = 0; i < probabilities.length; i++) {
        total += probabilities[i];
        if (total > draw) { return { id: i, probabilities: probabilities }; }
      }
      return { id: probabilities.length - 1, probabilities: probabilities };
    }

    function generate(prompt, options) {
      var steps = options.steps, temperature = options.temperature || 0, ablate = options.ablate || [];
      var draw = mulberry32(options.seed || 0), current = extend(emptyCache(), encode(prompt), ablate);
      var ids = [], distributions = [];
      for (var step = 0; step < steps; step++) {
        var chosen = pick(current.logits[current.logits.length - 1], temperature, draw());
        ids.push(chosen.id);
        distributions.push(chosen.probabilities);
        if (step + 1 < steps) { current = extend(current.cache, [chosen.id], ablate); }
      }
      return { text: ids.map(function (id) { return vocabulary[id]; }).join(""), ids: ids, probabilities: distributions };
    }

    return {
      vocabulary: vocabulary, layers: layers, heads: heads, width: width, context: context,
      encode: encode, emptyCache: emptyCache, extend: extend, pick: pick, generate: generate,
      forward: function (text, ablate) { return extend(emptyCache(), encode(text), ablate); },
      step: function (cache, id, ablate) { return extend(cache, [id], ablate); }
    };
  }

  function hex(buffer) {
    return Array.prototype.map.call(new Uint8Array(buffer), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
  }

  /** The model from ATTNLAB_DECODER_FILES (assets/decoder-model.js): its weights' SHA-256 checked first. */
  function fromScript(files) {
    var binary = atob(files.safetensors), bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) { bytes[i] = binary.charCodeAt(i); }
    var subtle = root.crypto && root.crypto.subtle;
    if (!subtle) { return Promise.reject(new Error("this browser offers no SHA-256 here (crypto.subtle): the weights cannot be checked")); }
    return subtle.digest("SHA-256", bytes).then(function (digest) {
      if (hex(digest) !== files.sha256) { throw new Error("decoder-model.js is damaged: its weights' SHA-256 differs"); }
      return fromFiles(bytes, files.vocabulary, files.config);
    });
  }

  var here = root.document && root.document.currentScript ? root.document.currentScript.src : "";
  var loading = null;

  /** Load the page's model once (a script element beside this one: works from file://); a promise of the model. */
  function load() {
    if (!loading) {
      loading = new Promise(function (resolve, reject) {
        if (root.ATTNLAB_DECODER_FILES) { resolve(root.ATTNLAB_DECODER_FILES); return; }
        var element = root.document.createElement("script");
        element.src = here.replace(/decoder\.js(\?.*)?$/, "decoder-model.js");
        element.onload = function () { resolve(root.ATTNLAB_DECODER_FILES); };
        element.onerror = function () { loading = null; reject(new Error("assets/decoder-model.js could not be loaded")); };
        root.document.head.appendChild(element);
      }).then(fromScript).then(function (model) {
        api.model = model;
        api.forward = model.forward;
        api.generate = model.generate;
        return model;
      });
    }
    return loading;
  }

  var api = { fromFiles: fromFiles, fromScript: fromScript, load: load, mulberry32: mulberry32, readSafetensors: readSafetensors };
  root.attnlab = root.attnlab || {};
  root.attnlab.decoder = api;
  if (typeof module === "object" && module.exports) { module.exports = api; }
})(typeof globalThis !== "undefined" ? globalThis : this);
