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
 * The weights are held as float32 (each float16 exactly) in a kernel.js
 * kernel, whose matrix products run in WebAssembly SIMD where the browser has
 * it: the linear layers in float32; the attention's (scores, weighted sums,
 * and ‖f(x_j)‖ through W_O^h's Gram matrix) in float64, like its softmax and
 * sizes, the layer norms and GELU. The numbers agree with Python's float64
 * ones within the explorer's tolerances (tests/node/test_model_js_node.py
 * checks 1e-5 on the weights and 1e-4 relative on the sizes, on both kernel
 * paths).
 *
 * Nothing is used before it is checked: assemble() compares every model
 * file's string with the length and SHA-256 the manifest lists, and names
 * the file that is missing, truncated or damaged.
 *
 * Needs wordpiece.js and kernel.js (loaded first, or required under Node).
 * A classic script: install is self-contained, so a worker can be built from
 * its source. MIT licence, like the rest of the code.
 */
(function install(root) {
  "use strict";

  var wordpiece = (root.attnlab && root.attnlab.wordpiece) ||
    (typeof require === "function" ? require("./wordpiece.js") : null);
  var kernels = (root.attnlab && root.attnlab.kernel) ||
    (typeof require === "function" ? require("./kernel.js") : null);

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

  /** The model from its manifest and every file's checked contents ({name: Uint16Array or tokenizer data}), its
   *  weights held by a kernel.js kernel (options.plain: its plain JavaScript path, even where WebAssembly SIMD runs). */
  function build(manifest, checked, options) {
    var table = halfTable();
    var kernel = kernels.create(manifest.values, options);
    var values = kernel.weights;
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
    return { config: manifest.config, tensors: tensors, tokenizer: wordpiece.tokenizer(tokenizerData), manifest: manifest,
             kernel: kernel, grams: {} };
  }

  /** Check every file the manifest lists (files: {name: string}, as the scripts left them), then build the model
   *  (options as build's). onFile(entry), if given, is called after each file is checked. */
  function assemble(manifest, files, onFile, options) {
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
    }, Promise.resolve()).then(function () { return build(manifest, checked, options); });
  }

  // the arithmetic ---------------------------------------------------------

  var SQRT_PI = Math.sqrt(Math.PI);

  /** erf(a) for a ≥ 0 the slow way, within 1e-15 of Python's math.erf: below 1 the series
   *  erf(a) = (2/√π) e^(−a²) Σ 2ⁿ a^(2n+1) / (1·3·5·…·(2n+1)), whose terms are all positive (nothing cancels);
   *  from 1 on, 1 − erfc(a) with erfc's continued fraction, evaluated by Lentz's method. It fills erf's table. */
  function erfSeries(a) {
    var gauss = Math.exp(-a * a);
    if (a < 1) {
      var term = a;
      var sum = a;
      for (var n = 1; term > 1e-17 * sum; n += 1) {
        term *= 2 * a * a / (2 * n + 1);
        sum += term;
      }
      return 2 / SQRT_PI * gauss * sum;
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
    return 1 - gauss / SQRT_PI / f;
  }

  var STEP = 32;    // erf's table: a node every 1/32 from 0 to 6
  var DEGREE = 8;   // terms of each node's Taylor polynomial (erf writes them out): the first left out is below 3e-19
  var erfTable = null;
  /** For each node x: erf(x), then the Taylor coefficients of erf(x + h) − erf(x) in h from h¹ on,
   *  (2/√π) e^(−x²) (−1)ⁿ Hₙ(x) / (n + 1)!, Hₙ the Hermite polynomials (H₀ = 1, H₁ = 2x, Hₙ₊₁ = 2x Hₙ − 2n Hₙ₋₁). */
  function erfNodes() {
    if (!erfTable) {
      erfTable = new Float64Array((6 * STEP + 1) * (DEGREE + 1));
      for (var m = 0; m <= 6 * STEP; m += 1) {
        var x = m / STEP;
        var at = m * (DEGREE + 1);
        var scale = 2 / SQRT_PI * Math.exp(-x * x);
        var before = 0;
        var hermite = 1;
        erfTable[at] = erfSeries(x);
        for (var n = 0; n < DEGREE; n += 1) {
          scale /= n + 1;
          erfTable[at + n + 1] = (n % 2 ? -1 : 1) * hermite * scale;
          var next = 2 * x * hermite - 2 * n * before;
          before = hermite;
          hermite = next;
        }
      }
    }
    return erfTable;
  }

  /** erf(x), within 1e-15 of Python's math.erf (tests/node/test_model_js_node.py measures the largest
   *  difference): the nearest node's Taylor polynomial, |h| ≤ 1/64, its eight terms summed in pairs, then pairs of
   *  pairs (Estrin's scheme: fewer operations wait on each other than in Horner's); beyond 6, ±1 (1 − erf(6) ≈ 2e-17). */
  function erf(x) {
    var a = Math.abs(x);
    if (!(a < 6)) { return a === a ? (x < 0 ? -1 : 1) : NaN; }
    var t = erfTable || erfNodes();
    var m = (a * STEP + 0.5) | 0;  // the nearest node
    var h = a - m / STEP, h2 = h * h;
    var at = m * (DEGREE + 1);
    var value = t[at] + h * ((t[at + 1] + h * t[at + 2]) + h2 * (t[at + 3] + h * t[at + 4]) +
                             h2 * h2 * ((t[at + 5] + h * t[at + 6]) + h2 * (t[at + 7] + h * t[at + 8])));
    return x < 0 ? -value : value;
  }

  /** x · Φ(x) = x (1 + erf(x/√2)) / 2, BERT's activation, exact form. */
  function gelu(x) { return 0.5 * x * (1 + erf(x / Math.SQRT2)); }

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

  /** rows (n × width) through the stored linear layer `name` (weight out × width, as PyTorch keeps W; bias): into
   *  (n × out). */
  function dense(model, name, rows, n, width, out, into) {
    return model.kernel.linear({ x: rows, n: n, k: width, weight: model.tensors[name + ".weight"], out: out,
                                 bias: model.tensors[name + ".bias"], into: into });
  }

  /** rows × width numbers from `from` (its rows fromStride apart, from fromAt) into `to` (toStride apart, from toAt). */
  function copyBlock(from, fromAt, fromStride, to, toAt, toStride, rows, width) {
    for (var i = 0; i < rows; i += 1) {
      for (var c = 0; c < width; c += 1) { to[toAt + i * toStride + c] = from[fromAt + i * fromStride + c]; }
    }
  }

  // a result's grids, in the order buffers() lists them: four of n numbers per row, four of d, then lengths (one)
  var GRIDS = ["attentions", "sizes", "scores", "scaled", "outputs", "queries", "keys", "values", "lengths"];

  /** The shape and arrays of a sentence's result (n pieces), each flat, [layer][head][query][key] in that order, to be
   *  written whole. Grid i lies at the start of spare[i] where that ArrayBuffer is large enough, else in a new one:
   *  a browser is slow to hand out fresh memory, and a long sentence's grids take tens of megabytes. */
  function emptyResult(config, n, spare) {
    var layers = config.layers, heads = config.heads, d = config.hidden / config.heads;
    var result = { shape: { layers: layers, heads: heads, n: n, d: d } };
    GRIDS.forEach(function (name, i) {
      var count = layers * heads * n * (i < 4 ? n : i < 8 ? d : 1);
      var buffer = spare && spare[i];
      result[name] = buffer instanceof ArrayBuffer && buffer.byteLength >= 8 * count ?
        new Float64Array(buffer, 0, count) : new Float64Array(count);
    });
    return result;
  }

  /** G = W_O^h W_O^hᵀ for head h of layer l (d × d, float64): computed once per model, kept in model.grams. */
  function gram(model, l, h, d) {
    var key = l + "." + h;
    if (!model.grams[key]) {
      var W = model.tensors["encoder.layer." + l + ".attention.output.dense.weight"];
      var width = model.config.hidden;
      var G = model.grams[key] = new Float64Array(d * d);
      for (var o = 0; o < width * width; o += width) {
        for (var c = 0; c < d; c += 1) {
          var w = W[o + h * d + c];
          for (var e = 0; e < d; e += 1) { G[c * d + e] += w * W[o + h * d + e]; }
        }
      }
    }
    return model.grams[key];
  }

  /** Head h of layer l on its queries, keys and values (already in result): scores, weights, sizes and outputs;
   *  the output rows also go into concat's columns. The products run in the kernel, in float64. */
  function head(model, l, h, n, result, concat) {
    var width = model.config.hidden;
    var d = result.shape.d;
    var at = (l * result.shape.heads + h) * n;  // the head's first row
    var rows = function (grid, last) { return grid.subarray(at * last, (at + n) * last); };
    var K = rows(result.keys, d), V = rows(result.values, d), lengths = rows(result.lengths, 1);
    // ‖f(x_j)‖² = ‖v_j W_O^h‖² = v_j · v_j G, with G = W_O^h W_O^hᵀ from the d columns of W_O the head's output meets
    var VG = model.kernel.product({ x: V, n: n, k: d, b: gram(model, l, h, d), out: d });
    for (var j = 0; j < n; j += 1) {
      var total = 0;
      for (var c = 0; c < d; c += 1) { total += V[j * d + c] * VG[j * d + c]; }
      lengths[j] = Math.sqrt(total);
    }
    // the scores q_i · k_j: the queries times the keys' columns
    var columns = new Float64Array(d * n);
    for (j = 0; j < n; j += 1) { for (c = 0; c < d; c += 1) { columns[c * n + j] = K[j * d + c]; } }
    var scores = model.kernel.product({ x: rows(result.queries, d), n: n, k: d, b: columns, out: n,
                                        into: rows(result.scores, n) });
    var scaled = rows(result.scaled, n), weights = rows(result.attentions, n), sizes = rows(result.sizes, n);
    var sqrtD = Math.sqrt(d);
    for (var i = 0; i < n * n; i += n) {  // a query's row: its softmax
      var peak = -Infinity;
      for (j = 0; j < n; j += 1) { peak = Math.max(peak, scaled[i + j] = scores[i + j] / sqrtD); }
      var sum = 0;
      for (j = 0; j < n; j += 1) { sum += (weights[i + j] = Math.exp(scaled[i + j] - peak)); }
      for (j = 0; j < n; j += 1) { sizes[i + j] = (weights[i + j] /= sum) * lengths[j]; }
    }
    // the outputs Σ_j α_ij v_j: the weights times the values
    var outputs = model.kernel.product({ x: weights, n: n, k: n, b: V, out: d, into: rows(result.outputs, d) });
    copyBlock(outputs, 0, d, concat, h * d, width, n, d);
  }

  /** Layer l on x (n × width): every head into result, and the block's output in x's place. The work arrays (rows,
   *  concat, mid: n × width; inner: n × intermediate) serve every layer. */
  function layer(model, l, x, n, result, work) {
    var config = model.config;
    var width = config.hidden;
    var heads = config.heads;
    var d = result.shape.d;
    var name = function (part) { return "encoder.layer." + l + "." + part; };
    var projections = { queries: "query", keys: "key", values: "value" };
    Object.keys(projections).forEach(function (kind) {
      var rows = dense(model, name("attention.self." + projections[kind]), x, n, width, width, work.rows);
      for (var h = 0; h < heads; h += 1) { copyBlock(rows, h * d, width, result[kind], (l * heads + h) * n * d, d, n, d); }
    });
    for (var h = 0; h < heads; h += 1) { head(model, l, h, n, result, work.concat); }
    var mid = dense(model, name("attention.output.dense"), work.concat, n, width, width, work.mid);
    for (var e = 0; e < n * width; e += 1) { mid[e] += x[e]; }
    layerNorm(mid, n, width, model.tensors[name("attention.output.LayerNorm.weight")],
              model.tensors[name("attention.output.LayerNorm.bias")], config.eps);
    var inner = dense(model, name("intermediate.dense"), mid, n, width, config.intermediate, work.inner);
    for (e = 0; e < inner.length; e += 1) { inner[e] = gelu(inner[e]); }
    var out = dense(model, name("output.dense"), inner, n, config.intermediate, width, x);  // x is spent
    for (e = 0; e < n * width; e += 1) { out[e] += mid[e]; }
    layerNorm(out, n, width, model.tensors[name("output.LayerNorm.weight")],
              model.tensors[name("output.LayerNorm.bias")], config.eps);
  }

  /** Token ids through the model: emptyResult's arrays filled (in spare's buffers where they fit), and hidden (the
   *  last layer's rows, n × width). */
  function forward(model, ids, spare) {
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
    var result = emptyResult(config, n, spare);
    var rows = function (width) { return new Float64Array(n * width); };
    var work = { rows: rows(width), concat: rows(width), mid: rows(width), inner: rows(config.intermediate) };
    for (var l = 0; l < config.layers; l += 1) { layer(model, l, x, n, result, work); }
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

  /** A sentence through the model, flat: {tokens, ids, shape {layers, heads, n, d}, attentions, sizes (‖α_ij f(x_j)‖),
   *  scores (q·k), scaled (q·k/√d_k), each a Float64Array [layer][head][query][key]; outputs (the heads' output rows),
   *  queries, keys and values, [layer][head][token][d]; lengths [layer][head][key] (‖f(x_j)‖); hidden (the last
   *  layer's rows)}. buffers(result) lists what a worker can transfer. spare (optional): buffers(r) of an earlier
   *  result r that nothing reads any more; the grids are written into its memory where they fit. */
  function run(model, text, spare) {
    var split = pieces(model, text);
    var result = forward(model, split.ids, spare);
    result.tokens = split.tokens;
    result.ids = split.ids;
    return result;
  }

  /** The ArrayBuffers of run's result, flat or nested, grid by grid in GRIDS' order, then hidden's: postMessage's
   *  transfer list, and run's spare once the result is no longer read. */
  function buffers(result) {
    return GRIDS.concat(["hidden"]).map(function (name) {
      var grid = result[name];
      while (!ArrayBuffer.isView(grid)) { grid = grid[0]; }
      return grid.buffer;
    });
  }

  /** run's result indexed as nested lists: attentions[layer][head][query] is a view of the flat array's row (no copy),
   *  and so for every grid; lengths[layer][head] is a view of n numbers. */
  function nested(result) {
    var shape = result.shape;
    var out = { tokens: result.tokens, ids: result.ids, hidden: result.hidden };
    GRIDS.forEach(function (name) {
      var flat = result[name];
      var row = flat.length / (shape.layers * shape.heads * shape.n);  // n, d or 1
      var last = name === "lengths" ? shape.n : row;
      var rows = name === "lengths" ? 1 : shape.n;
      out[name] = [];
      for (var l = 0; l < shape.layers; l += 1) {
        var heads = [];
        for (var h = 0; h < shape.heads; h += 1) {
          var at = (l * shape.heads + h) * shape.n * row;
          if (rows === 1) { heads.push(flat.subarray(at, at + last)); continue; }
          var grid = [];
          for (var i = 0; i < rows; i += 1) { grid.push(flat.subarray(at + i * last, at + (i + 1) * last)); }
          heads.push(grid);
        }
        out[name].push(heads);
      }
    });
    return out;
  }

  /** A sentence through the model, nested: run's result as nested(run(model, text)) gives it. */
  function encode(model, text) { return nested(run(model, text)); }

  var api = { assemble: assemble, checkFile: checkFile, codeUnits: codeUnits, build: build, run: run, buffers: buffers,
              nested: nested, encode: encode, pieces: pieces, erf: erf, gelu: gelu, halfValue: halfValue,
              install: install };
  root.attnlab = root.attnlab || {};
  root.attnlab.minilm = api;
  if (typeof module === "object" && module.exports) { module.exports = api; }
})(typeof globalThis !== "undefined" ? globalThis : this);
