/* Attention Lab: all-MiniLM-L6-v2 run in the browser (and under Node), every head kept.
 *
 * The forward pass attnlab.bert computes in Python, on the model's weights
 * rounded to float16 (attnlab.site.build.model_files writes them; Python's
 * reference is attnlab.bert.load_model(precision="float16")):
 *   embeddings: word + position + token type 0, then layer norm;
 *   six Post-LN encoder blocks: LayerNorm(x + MultiHead(x)), then
 *   LayerNorm(mid + W2 GELU(W1 mid + b1) + b2), GELU with the exact erf;
 *   each head: q = x W_Q + b_Q (and k, v), scores q·k / √d_k, a softmax per
 *   query row, the output Σ_j α_ij v_j;
 *   and the size of what each key adds to each query's output through each
 *   head, ‖α_ij f(x_j)‖ with f(x_j) = v_j W_O^h (attnlab.contributions).
 * The weights are held as float32 (each float16 exactly); every sum runs in
 * JavaScript's float64, so the numbers agree with Python's float64 ones to
 * rounding error (tests/test_model_js_node.py checks 1e-5 on the weights).
 *
 * Nothing is used before it is checked: assemble() compares every model
 * file's string with the length and SHA-256 the manifest lists, and names
 * the file that is missing, truncated or damaged.
 *
 * Needs wordpiece.js (loaded first, or required under Node). A classic
 * script: install is self-contained, so a worker can be built from its
 * source. MIT licence, like the rest of the code.
 */
(function install(root) {
  "use strict";

  var wordpiece = (root.attnlab && root.attnlab.wordpiece) ||
    (typeof require === "function" ? require("./wordpiece.js") : null);

  /** A model file that cannot be used: missing, truncated or not the bytes the manifest lists. */
  function ModelFileError(message) {
    var error = new Error(message);
    error.name = "ModelFileError";
    return error;
  }

  /** A sentence the model does not take: empty, or more word pieces than the limit. */
  function InputError(message) {
    var error = new RangeError(message);
    error.name = "InputError";
    return error;
  }

  // float16 ----------------------------------------------------------------

  /** The number a float16 bit pattern h stands for (sign, 5 exponent bits, 10 fraction bits). */
  function halfValue(h) {
    var sign = h & 0x8000 ? -1 : 1;
    var exponent = (h >> 10) & 0x1f;
    var fraction = h & 0x3ff;
    if (exponent === 0) { return sign * fraction * Math.pow(2, -24); }
    if (exponent === 31) { return fraction ? NaN : sign * Infinity; }
    return sign * (1 + fraction / 1024) * Math.pow(2, exponent - 15);
  }

  var halves = null;
  /** Every float16 pattern's value, computed once. */
  function halfTable() {
    if (!halves) {
      halves = new Float32Array(65536);
      for (var h = 0; h < 65536; h += 1) { halves[h] = halfValue(h); }
    }
    return halves;
  }

  // checking the files -----------------------------------------------------

  /** SHA-256 of bytes as lower-case hex (Web Crypto: the browser's, or Node's). */
  function sha256(bytes) {
    var subtle = root.crypto && root.crypto.subtle;
    if (!subtle) {
      return Promise.reject(ModelFileError("this browser offers no SHA-256 here (crypto.subtle), so the model's " +
                                           "files cannot be checked"));
    }
    return subtle.digest("SHA-256", bytes).then(function (digest) {
      return Array.prototype.map.call(new Uint8Array(digest), function (b) { return (b < 16 ? "0" : "") + b.toString(16); }).join("");
    });
  }

  /** A file's string as its 16-bit code units. */
  function codeUnits(text) {
    var units = new Uint16Array(text.length);
    for (var i = 0; i < text.length; i += 1) { units[i] = text.charCodeAt(i); }
    return units;
  }

  var AGAIN = "; copy or download the model's files again";

  /** What a model file left: its string, or (a weights file, passed on by the page) the string's code units. */
  function delivered(entry, content) {
    if (typeof content !== "string" && !(content instanceof Uint16Array && entry.kind === "weights")) {
      throw ModelFileError(entry.name + " did not deliver its data: the file is missing, truncated or damaged" + AGAIN);
    }
    return content;
  }

  /** Check one model file's contents against its manifest entry: a promise of what it holds.
   *  A weights file gives its float16 bits (Uint16Array); the tokenizer file its parsed data. */
  function checkFile(entry, content) {
    try { delivered(entry, content); } catch (error) { return Promise.reject(error); }
    var bytes;
    if (entry.kind === "weights") {
      if (content.length !== entry.values) {
        return Promise.reject(ModelFileError(entry.name + " holds " + content.length + " weights where the manifest " +
                                             "lists " + entry.values + ": the file is truncated or damaged" + AGAIN));
      }
      bytes = typeof content === "string" ? codeUnits(content) : content;
    } else {
      bytes = new TextEncoder().encode(content);
    }
    return sha256(bytes).then(function (digest) {
      if (digest !== entry.sha256) {
        throw ModelFileError(entry.name + " is not the file the manifest lists (its SHA-256 differs): the file is " +
                             "damaged" + AGAIN);
      }
      return entry.kind === "weights" ? bytes : JSON.parse(content);
    });
  }

  /** The model from its manifest and every file's checked contents ({name: Uint16Array or tokenizer data}). */
  function build(manifest, checked) {
    var table = halfTable();
    var values = new Float32Array(manifest.values);
    var tokenizerData = null;
    manifest.files.forEach(function (entry) {
      var content = checked[entry.name];
      if (entry.kind === "tokenizer") { tokenizerData = content; return; }
      for (var i = 0; i < content.length; i += 1) { values[entry.first + i] = table[content[i]]; }
    });
    var tensors = {};
    manifest.tensors.forEach(function (t) {
      var size = t.shape.reduce(function (a, b) { return a * b; }, 1);
      tensors[t.name] = values.subarray(t.offset, t.offset + size);
    });
    return { config: manifest.config, tensors: tensors, tokenizer: wordpiece.tokenizer(tokenizerData), manifest: manifest };
  }

  /** Check every file the manifest lists (files: {name: string}, as the scripts left them), then build the model.
   *  onFile(entry), if given, is called after each file is checked. */
  function assemble(manifest, files, onFile) {
    if (!manifest || !Array.isArray(manifest.files) || !Array.isArray(manifest.tensors)) {
      return Promise.reject(ModelFileError("the model's manifest.js did not load, or is not a manifest" + AGAIN));
    }
    var checked = {};
    return manifest.files.reduce(function (previous, entry) {
      return previous.then(function () {
        return checkFile(entry, (files || {})[entry.name]).then(function (content) {
          checked[entry.name] = content;
          if (onFile) { onFile(entry); }
        });
      });
    }, Promise.resolve()).then(function () { return build(manifest, checked); });
  }

  // the arithmetic ---------------------------------------------------------

  var SQRT_PI = Math.sqrt(Math.PI);

  /** erf(x), within 1e-15 of Python's math.erf: below |x| = 1 the series
   *  erf(x) = (2/√π) e^(−x²) Σ 2ⁿ x^(2n+1) / (1·3·5·…·(2n+1)), whose terms are all positive (nothing cancels);
   *  from 1 on, 1 − erfc(x) with erfc's continued fraction, evaluated by Lentz's method. */
  function erf(x) {
    var a = Math.abs(x);
    if (!(a < 6)) { return a === a ? (x < 0 ? -1 : 1) : NaN; }  // 1 − erf(6) ≈ 2e-17 rounds to 1
    var gauss = Math.exp(-a * a);
    if (a < 1) {
      var term = a;
      var sum = a;
      for (var n = 1; term > 1e-17 * sum; n += 1) {
        term *= 2 * a * a / (2 * n + 1);
        sum += term;
      }
      return (x < 0 ? -2 : 2) / SQRT_PI * gauss * sum;
    }
    // erfc(a) = e^(−a²)/√π · 1/(a + (1/2)/(a + 1/(a + (3/2)/(a + …))))
    var f = a;
    var c = a;
    var d = 0;
    for (var k = 1; k < 500; k += 1) {
      d = 1 / (a + k / 2 * d);
      c = a + k / 2 / c;
      var delta = c * d;
      f *= delta;
      if (Math.abs(delta - 1) < 1e-17) { break; }
    }
    var erfc = gauss / SQRT_PI / f;
    return x < 0 ? erfc - 1 : 1 - erfc;
  }

  /** x · Φ(x) = x (1 + erf(x/√2)) / 2, BERT's activation, exact form. */
  function gelu(x) { return 0.5 * x * (1 + erf(x / Math.SQRT2)); }

  /** rows (n × width) times the stored matrix weight (out × width, as PyTorch keeps W) plus bias: n × out.
   *  Four rows and two outputs per pass over the weights, so each number read is used several times; past the
   *  last row (or output) the last one is computed again and not stored. */
  function linear(rows, n, width, weight, bias, out) {
    var result = new Float64Array(n * out);
    for (var o = 0; o < out; o += 2) {
      var pair = o + 1 < out;
      var u0 = o * width;
      var u1 = pair ? u0 + width : u0;
      for (var i = 0; i < n; i += 4) {
        var r0 = i * width;
        var r1 = Math.min(i + 1, n - 1) * width;
        var r2 = Math.min(i + 2, n - 1) * width;
        var r3 = Math.min(i + 3, n - 1) * width;
        var a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        for (var k = 0; k < width; k += 1) {
          var wa = weight[u0 + k];
          var wb = weight[u1 + k];
          var x0 = rows[r0 + k], x1 = rows[r1 + k], x2 = rows[r2 + k], x3 = rows[r3 + k];
          a0 += x0 * wa; a1 += x1 * wa; a2 += x2 * wa; a3 += x3 * wa;
          b0 += x0 * wb; b1 += x1 * wb; b2 += x2 * wb; b3 += x3 * wb;
        }
        var at = i * out + o;
        result[at] = a0 + bias[o];
        if (pair) { result[at + 1] = b0 + bias[o + 1]; }
        if (i + 1 < n) { result[at + out] = a1 + bias[o]; if (pair) { result[at + out + 1] = b1 + bias[o + 1]; } }
        if (i + 2 < n) { result[at + 2 * out] = a2 + bias[o]; if (pair) { result[at + 2 * out + 1] = b2 + bias[o + 1]; } }
        if (i + 3 < n) { result[at + 3 * out] = a3 + bias[o]; if (pair) { result[at + 3 * out + 1] = b3 + bias[o + 1]; } }
      }
    }
    return result;
  }

  /** Layer norm of each row of rows (n × width), in place: gain · (x − mean) / √(var + eps) + bias. */
  function layerNorm(rows, n, width, gain, bias, eps) {
    for (var i = 0; i < n; i += 1) {
      var r = i * width;
      var mean = 0;
      for (var k = 0; k < width; k += 1) { mean += rows[r + k]; }
      mean /= width;
      var variance = 0;
      for (k = 0; k < width; k += 1) { var centred = rows[r + k] - mean; variance += centred * centred; }
      var spread = Math.sqrt(variance / width + eps);
      for (k = 0; k < width; k += 1) { rows[r + k] = gain[k] * ((rows[r + k] - mean) / spread) + bias[k]; }
    }
    return rows;
  }

  /** Column block h (d wide) of rows (n × width) as n rows of plain numbers. */
  function headRows(rows, n, width, h, d) {
    var out = [];
    for (var i = 0; i < n; i += 1) { out.push(Array.from(rows.subarray(i * width + h * d, i * width + (h + 1) * d))); }
    return out;
  }

  /** Columns start … start + d − 1 of rows (n × width), as an n × d block of their own. */
  function block(rows, n, width, start, d) {
    var out = new Float64Array(n * d);
    for (var i = 0; i < n; i += 1) { out.set(rows.subarray(i * width + start, i * width + start + d), i * d); }
    return out;
  }

  /** W_O^h of layer l, kept as a stored linear layer (width × d): the d columns of W_O that head h's output meets. */
  function outputRows(model, l, h) {
    var kept = model.outputRows || (model.outputRows = {});
    var key = l + "/" + h;
    if (!kept[key]) {
      var width = model.config.hidden;
      var d = width / model.config.heads;
      kept[key] = new Float32Array(block(model.tensors["encoder.layer." + l + ".attention.output.dense.weight"],
                                         width, width, h * d, d));
    }
    return kept[key];
  }

  var noBias = {};
  /** A bias of zeros, width wide. */
  function zeros(width) { return noBias[width] || (noBias[width] = new Float32Array(width)); }

  /** Layer l's attention on x: every head's weights, outputs and contribution sizes, and the block's output. */
  function layer(model, l, x, n) {
    var config = model.config;
    var width = config.hidden;
    var heads = config.heads;
    var d = width / heads;
    var p = function (name) { return model.tensors["encoder.layer." + l + "." + name]; };
    var q = linear(x, n, width, p("attention.self.query.weight"), p("attention.self.query.bias"), width);
    var k = linear(x, n, width, p("attention.self.key.weight"), p("attention.self.key.bias"), width);
    var v = linear(x, n, width, p("attention.self.value.weight"), p("attention.self.value.bias"), width);
    var wO = p("attention.output.dense.weight");
    var concat = new Float64Array(n * width);
    var record = { weights: [], sizes: [], scores: [], scaled: [], outputs: [], lengths: [],
                   queries: [], keys: [], values: [] };
    var sqrtD = Math.sqrt(d);
    for (var h = 0; h < heads; h += 1) {
      var c0 = h * d;
      // ‖f(x_j)‖ = ‖v_j W_O^h‖: head h's value rows through the rows of W_O its output columns meet
      var values = block(v, n, width, c0, d);
      var f = linear(values, n, d, outputRows(model, l, h), zeros(width), width);
      var lengths = new Float64Array(n);
      for (var j = 0; j < n; j += 1) {
        var total = 0;
        for (var o = 0; o < width; o += 1) { total += f[j * width + o] * f[j * width + o]; }
        lengths[j] = Math.sqrt(total);
      }
      var weights = [];
      var sizes = [];
      var scores = [];
      var scaleds = [];
      for (var i = 0; i < n; i += 1) {
        var raw = new Float64Array(n);
        var scaled = new Float64Array(n);
        var peak = -Infinity;
        for (j = 0; j < n; j += 1) {
          var s = 0;
          for (var c = 0; c < d; c += 1) { s += q[i * width + c0 + c] * k[j * width + c0 + c]; }
          raw[j] = s;
          scaled[j] = s / sqrtD;
          if (scaled[j] > peak) { peak = scaled[j]; }
        }
        var row = new Float64Array(n);
        var sum = 0;
        for (j = 0; j < n; j += 1) { row[j] = Math.exp(scaled[j] - peak); sum += row[j]; }
        var size = new Array(n);
        for (j = 0; j < n; j += 1) { row[j] /= sum; size[j] = row[j] * lengths[j]; }
        for (c = 0; c < d; c += 1) {
          var mixed = 0;
          for (j = 0; j < n; j += 1) { mixed += row[j] * v[j * width + c0 + c]; }
          concat[i * width + c0 + c] = mixed;
        }
        weights.push(Array.from(row));
        sizes.push(size);
        scores.push(Array.from(raw));
        scaleds.push(Array.from(scaled));
      }
      record.weights.push(weights);
      record.sizes.push(sizes);
      record.scores.push(scores);
      record.scaled.push(scaleds);
      record.outputs.push(headRows(concat, n, width, h, d));
      record.lengths.push(Array.from(lengths));
      record.queries.push(headRows(q, n, width, h, d));
      record.keys.push(headRows(k, n, width, h, d));
      record.values.push(headRows(v, n, width, h, d));
    }
    var mid = linear(concat, n, width, wO, p("attention.output.dense.bias"), width);
    for (var e = 0; e < n * width; e += 1) { mid[e] += x[e]; }
    layerNorm(mid, n, width, p("attention.output.LayerNorm.weight"), p("attention.output.LayerNorm.bias"), config.eps);
    var inner = linear(mid, n, width, p("intermediate.dense.weight"), p("intermediate.dense.bias"), config.intermediate);
    for (e = 0; e < inner.length; e += 1) { inner[e] = gelu(inner[e]); }
    var out = linear(inner, n, config.intermediate, p("output.dense.weight"), p("output.dense.bias"), width);
    for (e = 0; e < n * width; e += 1) { out[e] += mid[e]; }
    layerNorm(out, n, width, p("output.LayerNorm.weight"), p("output.LayerNorm.bias"), config.eps);
    record.output = out;
    return record;
  }

  /** Token ids through the model: per layer (from 0) and head, everything the explorer shows. */
  function forward(model, ids) {
    var config = model.config;
    var t = model.tensors;
    var n = ids.length;
    var width = config.hidden;
    var word = t["embeddings.word_embeddings.weight"];
    var position = t["embeddings.position_embeddings.weight"];
    var type = t["embeddings.token_type_embeddings.weight"];  // every token is of type 0
    var x = new Float64Array(n * width);
    for (var i = 0; i < n; i += 1) {
      for (var c = 0; c < width; c += 1) {
        x[i * width + c] = word[ids[i] * width + c] + position[i * width + c] + type[c];
      }
    }
    layerNorm(x, n, width, t["embeddings.LayerNorm.weight"], t["embeddings.LayerNorm.bias"], config.eps);
    var result = { weights: [], sizes: [], scores: [], scaled: [], outputs: [], lengths: [], queries: [], keys: [], values: [] };
    for (var l = 0; l < config.layers; l += 1) {
      var record = layer(model, l, x, n);
      Object.keys(result).forEach(function (name) { result[name].push(record[name]); });
      x = record.output;
    }
    result.hidden = x;
    return result;
  }

  /** The sentence's word pieces, refused with a reader's message when empty or beyond the model's limit. */
  function pieces(model, text) {
    var split = model.tokenizer.tokenize(text);
    var count = split.tokens.length;
    if (count <= 2) {
      throw InputError("There is nothing to split into word pieces: type a sentence.");
    }
    if (count > model.tokenizer.limit) {
      throw InputError("This text gives " + count + " word pieces ([CLS] and [SEP] included), and the model " +
                       "here takes at most " + model.tokenizer.limit + ": shorten it by " +
                       (count - model.tokenizer.limit) + ".");
    }
    return split;
  }

  /** A sentence through the model: {tokens, ids, attentions[layer][head][query][key], sizes (‖α_ij f(x_j)‖ alike),
   *  outputs[layer][head][query] (the head's output row), scores (q·k) and scaled (q·k/√d_k) alike, queries, keys and values
   *  [layer][head][token], lengths[layer][head][key] (‖f(x_j)‖), hidden (the last layer's rows, flat)}. */
  function encode(model, text) {
    var split = pieces(model, text);
    var run = forward(model, split.ids);
    return { tokens: split.tokens, ids: split.ids, attentions: run.weights, sizes: run.sizes, outputs: run.outputs,
             scores: run.scores, scaled: run.scaled, queries: run.queries, keys: run.keys, values: run.values,
             lengths: run.lengths, hidden: run.hidden };
  }

  var api = { assemble: assemble, checkFile: checkFile, codeUnits: codeUnits, build: build, encode: encode, pieces: pieces,
              forward: forward, erf: erf, gelu: gelu, halfValue: halfValue, install: install };
  root.attnlab = root.attnlab || {};
  root.attnlab.minilm = api;
  if (typeof module === "object" && module.exports) { module.exports = api; }
})(typeof globalThis !== "undefined" ? globalThis : this);
