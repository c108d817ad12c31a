/* Attention Lab: the page's matrix products, y = x Wᵀ + b and y = x b, fast and the same everywhere.
 *
 * attnlab.kernel.create(count, {plain}) gives a kernel holding `count` float32 weights:
 *   kernel.weights   a Float32Array of that size to fill (the kernel reads it where it lies, without copying);
 *   kernel.linear({x, n, k, xStride, weight, wStride, out, bias, into}) -> into (default a new Float64Array n × out):
 *                    row i of x (x[i·xStride …], k numbers; Float32Array or Float64Array) times each of the out
 *                    rows of weight (weight[o·wStride …], k numbers), plus bias[o] (none: 0);
 *   kernel.product({x, n, k, b, out, into}) -> into (default a new Float64Array n × out): in float64, row i of x
 *                    (x[i·k …], k numbers) times b (k rows of out numbers), each sum taken in order of c:
 *                    into[i·out + o] = Σ_c x[i·k + c] · b[c·out + o];
 *   kernel.simd      true where the WebAssembly path runs.
 * Each output of linear is computed in float32 in one fixed order (kernel.wat says which): four lanes of products, their sum,
 * the last k mod 4 products, the bias. The WebAssembly module (kernel.wat, 128-bit SIMD, its bytes below as made
 * by `node scripts/kernel-bytes.js`) runs where the browser validates it; elsewhere, or with {plain: true}, the
 * same order runs in JavaScript, every operation rounded to float32 by Math.fround: the two give identical numbers
 * (tests/node/test_kernel_js.py). float32 is what the weights are (each a float16), and enough for the model's
 * tolerances. product (minilm.js's attention: scores, weighted sums) runs in float64, summing in order of c as a
 * plain JavaScript loop does, so its two paths agree exactly too.
 *
 * A classic script, no fetch (so file:// works): install is self-contained, so a worker can be built from its
 * source. MIT licence, like the rest of the code.
 */
(function install(root) {
  "use strict";

  var BYTES = "AGFzbQEAAAABHwNgBnt/f39/fQF9YAh/f39/f39/fwBgBn9/f39/fwADBAMAAQIFAwEAAQcdAwZtZW1vcnkCAAZsaW5lYXIAAQdwcm9kdWN0AAIK7QsDXgIBfQF/IAD9HwAgAP0fAZIgAP0fAiAA/R8DkpIhBiADQQJ0IQcgBEECdCEEAkADQCAHIARPDQEgBiABIAdqKgIAIAIgB2oqAgCUkiEGIAdBBGohBwwACwsgBiAFkgvVBgQNfwJ9AX8LeyACQXxxIQsgC0ECdCEMIAJBAnQhDUEAIQgCQANAIAggBU8NASAIQQFqIAVJIRQgAyAIIARsQQJ0aiEOIA4gBEECdGogDiAUGyEPQwAAAAAhFUMAAAAAIRYgBgRAIAYgCEECdGoqAgAhFSAUBEAgBiAIQQFqQQJ0aioCACEWCwtBACEJAkADQCAJIAFPDQEgACAJIA1saiEQIBAgDWogECAJQQFqIAFJGyERIBEgDWogESAJQQJqIAFJGyESIBIgDWogEiAJQQNqIAFJGyET/QwAAAAAAAAAAAAAAAAAAAAAIRv9DAAAAAAAAAAAAAAAAAAAAAAhHP0MAAAAAAAAAAAAAAAAAAAAACEd/QwAAAAAAAAAAAAAAAAAAAAAIR79DAAAAAAAAAAAAAAAAAAAAAAhH/0MAAAAAAAAAAAAAAAAAAAAACEg/QwAAAAAAAAAAAAAAAAAAAAAISH9DAAAAAAAAAAAAAAAAAAAAAAhIkEAIQoCQANAIAogDE8NASAOIApq/QAEACEYIA8gCmr9AAQAIRkgECAKav0ABAAhGiAbIBogGP3mAf3kASEbIB8gGiAZ/eYB/eQBIR8gESAKav0ABAAhGiAcIBogGP3mAf3kASEcICAgGiAZ/eYB/eQBISAgEiAKav0ABAAhGiAdIBogGP3mAf3kASEdICEgGiAZ/eYB/eQBISEgEyAKav0ABAAhGiAeIBogGP3mAf3kASEeICIgGiAZ/eYB/eQBISIgCkEQaiEKDAALCyAHIAkgBWwgCGpBAnRqIRcgFyAbIBAgDiALIAIgFRAAOAIAIBQEQCAXIB8gECAPIAsgAiAWEAA4AgQLIAlBAWogAUkEQCAXIAVBAnRqIRcgFyAcIBEgDiALIAIgFRAAOAIAIBQEQCAXICAgESAPIAsgAiAWEAA4AgQLCyAJQQJqIAFJBEAgFyAFQQJ0aiEXIBcgHSASIA4gCyACIBUQADgCACAUBEAgFyAhIBIgDyALIAIgFhAAOAIECwsgCUEDaiABSQRAIBcgBUECdGohFyAXIB4gEyAOIAsgAiAVEAA4AgAgFARAIBcgIiATIA8gCyACIBYQADgCBAsLIAlBBGohCQwACwsgCEECaiEIDAALCwu0BAIIfwt7IAJBA3QhCCAEQQN0IQlBACEGAkADQCAGIAFPDQFBACEHAkADQCAHIARPDQH9DAAAAAAAAAAAAAAAAAAAAAAhEf0MAAAAAAAAAAAAAAAAAAAAACES/QwAAAAAAAAAAAAAAAAAAAAAIRP9DAAAAAAAAAAAAAAAAAAAAAAhFP0MAAAAAAAAAAAAAAAAAAAAACEV/QwAAAAAAAAAAAAAAAAAAAAAIRb9DAAAAAAAAAAAAAAAAAAAAAAhF/0MAAAAAAAAAAAAAAAAAAAAACEYIAAgBiAIbGohCiAKIAhqIQsgAyAHQQN0aiEMAkADQCAKIAtPDQEgDP0ABAAhDiAM/QAEECEPIAr9CgMAIRAgESAQIA798gH98AEhESAVIBAgD/3yAf3wASEVIAogCGr9CgMAIRAgEiAQIA798gH98AEhEiAWIBAgD/3yAf3wASEWIAogCEEBdGr9CgMAIRAgEyAQIA798gH98AEhEyAXIBAgD/3yAf3wASEXIAogCEEDbGr9CgMAIRAgFCAQIA798gH98AEhFCAYIBAgD/3yAf3wASEYIApBCGohCiAMIAlqIQwMAAsLIAUgBiAEbCAHakEDdGohDSANIBH9CwQAIA0gFf0LBBAgDSAJaiENIA0gEv0LBAAgDSAW/QsEECANIAlqIQ0gDSAT/QsEACANIBf9CwQQIA0gCWohDSANIBT9CwQAIA0gGP0LBBAgB0EEaiEHDAALCyAGQQRqIQYMAAsLCw==";
  var SCRATCH = 4 << 20;  // bytes of WebAssembly memory for a call's rows, results and copied weights; weights after
  var RESERVED = 16;      // address 0 means "no bias", so nothing is put there

  var compiled;
  /** The WebAssembly module, or null where there is no WebAssembly or no SIMD. */
  function simdModule() {
    if (compiled === undefined) {
      compiled = null;
      if (typeof WebAssembly === "object") {
        var bytes = Uint8Array.from(atob(BYTES), function (c) { return c.charCodeAt(0); });
        if (WebAssembly.validate(bytes)) { compiled = new WebAssembly.Module(bytes); }
      }
    }
    return compiled;
  }

  var f = Math.fround;

  /** One output from its lanes a0 … a3: their sum, the products of xs[c]·w[u + c] for c from k4 to k, then b. */
  function finish(a0, a1, a2, a3, xs, w, u, k4, k, b) {
    var s = f(f(a0 + a1) + f(a2 + a3));
    for (var c = k4; c < k; c += 1) { s = f(s + f(xs[c] * w[u + c])); }
    return f(s + b);
  }

  /** The plain JavaScript path: one row at a time, rounded to float32 (xs), two outputs per pass over it. */
  function plainLinear(spec, into) {
    var x = spec.x, n = spec.n, k = spec.k, w = spec.weight, out = spec.out, bias = spec.bias;
    var xStride = spec.xStride, ws = spec.wStride;
    var k4 = k & ~3;
    var xs = new Float32Array(k);
    for (var i = 0; i < n; i += 1) {
      xs.set(x.subarray(i * xStride, i * xStride + k));
      for (var o = 0; o < out; o += 2) {
        var pair = o + 1 < out;
        var u = o * ws;
        var v = pair ? u + ws : u;
        var a0 = 0, a1 = 0, a2 = 0, a3 = 0, b0 = 0, b1 = 0, b2 = 0, b3 = 0;
        for (var c = 0; c < k4; c += 4) {
          var x0 = xs[c], x1 = xs[c + 1], x2 = xs[c + 2], x3 = xs[c + 3];
          a0 = f(a0 + f(x0 * w[u + c])); a1 = f(a1 + f(x1 * w[u + c + 1]));
          a2 = f(a2 + f(x2 * w[u + c + 2])); a3 = f(a3 + f(x3 * w[u + c + 3]));
          b0 = f(b0 + f(x0 * w[v + c])); b1 = f(b1 + f(x1 * w[v + c + 1]));
          b2 = f(b2 + f(x2 * w[v + c + 2])); b3 = f(b3 + f(x3 * w[v + c + 3]));
        }
        into[i * out + o] = finish(a0, a1, a2, a3, xs, w, u, k4, k, bias ? bias[o] : 0);
        if (pair) { into[i * out + o + 1] = finish(b0, b1, b2, b3, xs, w, v, k4, k, bias ? bias[o + 1] : 0); }
      }
    }
    return into;
  }

  /** Rows of `width` numbers from `from` (rows `fromWidth` apart) into `to` (`toWidth` apart, from `at`). */
  function copyRows(from, fromWidth, to, at, toWidth, rows, width) {
    if (fromWidth === width && toWidth === width) { to.set(from.subarray(0, rows * width), at); return; }
    for (var r = 0; r < rows; r += 1) { to.set(from.subarray(r * fromWidth, r * fromWidth + width), at + r * toWidth); }
  }

  /** The WebAssembly path: rows copied into scratch memory in chunks that fit, weights read where they lie
   *  (or, outside the kernel's memory, copied first), the results copied out. */
  function simdLinear(instance, spec, into) {
    var memory = instance.exports.memory;
    var heap = new Float32Array(memory.buffer);
    var k = spec.k, out = spec.out;
    var free = RESERVED / 4;
    /** Where array (rows of `width` numbers, `stride` apart) lies in memory, in bytes; copied into scratch if outside. */
    var place = function (array, rows, width, stride) {
      if (array.buffer === memory.buffer) { return { at: array.byteOffset, stride: stride }; }
      var at = free;
      free += rows * width;
      if (free * 4 > SCRATCH) { throw new RangeError("kernel.linear: the weights outside the kernel's memory are too large to copy"); }
      copyRows(array, stride, heap, at, width, rows, width);
      return { at: at * 4, stride: width };
    };
    var weight = place(spec.weight, out, k, spec.wStride);
    var bias = spec.bias ? place(spec.bias, 1, out, out).at : 0;
    var chunk = Math.floor((SCRATCH / 4 - free) / (k + out));
    if (chunk < 1) { throw new RangeError("kernel.linear: a row of " + k + " numbers and " + out + " outputs do not fit"); }
    for (var first = 0; first < spec.n; first += chunk) {
      var rows = Math.min(chunk, spec.n - first);
      var xAt = free, yAt = free + rows * k;
      copyRows(spec.x.subarray(first * spec.xStride), spec.xStride, heap, xAt, k, rows, k);
      instance.exports.linear(xAt * 4, rows, k, weight.at, weight.stride, out, bias, yAt * 4);
      into.set(heap.subarray(yAt, yAt + rows * out), first * out);
    }
    return into;
  }

  /** product in plain JavaScript. */
  function plainProduct(spec, into) {
    var x = spec.x, n = spec.n, k = spec.k, b = spec.b, out = spec.out;
    for (var i = 0; i < n; i += 1) {
      for (var o = 0; o < out; o += 1) {
        var sum = 0;
        for (var c = 0; c < k; c += 1) { sum += x[i * k + c] * b[c * out + o]; }
        into[i * out + o] = sum;
      }
    }
    return into;
  }

  /** product in WebAssembly: x and b copied into scratch memory, zeros making the rows and the outputs multiples of
   *  four, y copied out. */
  function simdProduct(instance, spec, into) {
    var n = spec.n, k = spec.k, out = spec.out;
    var rows = (n + 3) & ~3, wide = (out + 3) & ~3;
    var heap = new Float64Array(instance.exports.memory.buffer);
    var x = RESERVED / 8, b = x + rows * k, y = b + k * wide;
    if ((y + rows * wide) * 8 > SCRATCH) {
      throw new RangeError("kernel.product: " + n + " × " + k + " numbers by " + k + " × " + out + " do not fit");
    }
    heap.fill(0, x, y);
    copyRows(spec.x, k, heap, x, k, n, k);
    copyRows(spec.b, out, heap, b, wide, k, out);
    instance.exports.product(x * 8, rows, k, b * 8, wide, y * 8);
    copyRows(heap.subarray(y), wide, into, 0, out, n, out);
    return into;
  }

  /** A kernel holding count float32 weights; options.plain: the JavaScript path even where SIMD runs. */
  function create(count, options) {
    var module = options && options.plain ? null : simdModule();
    var instance = module && new WebAssembly.Instance(module, {});
    var weights;
    if (instance) {
      var memory = instance.exports.memory;
      memory.grow(Math.ceil((SCRATCH + 4 * count) / 65536) - memory.buffer.byteLength / 65536);
      weights = new Float32Array(memory.buffer, SCRATCH, count);
    } else {
      weights = new Float32Array(count);
    }
    return {
      weights: weights,
      simd: Boolean(instance),
      linear: function (spec) {
        var full = { x: spec.x, n: spec.n, k: spec.k, xStride: spec.xStride || spec.k, weight: spec.weight,
                     wStride: spec.wStride || spec.k, out: spec.out, bias: spec.bias || null };
        var into = spec.into || new Float64Array(spec.n * spec.out);
        return instance ? simdLinear(instance, full, into) : plainLinear(full, into);
      },
      product: function (spec) {
        var into = spec.into || new Float64Array(spec.n * spec.out);
        return instance ? simdProduct(instance, spec, into) : plainProduct(spec, into);
      },
    };
  }

  var api = { create: create, install: install };
  root.attnlab = root.attnlab || {};
  root.attnlab.kernel = api;
  if (typeof module === "object" && module.exports) { module.exports = api; }
})(typeof globalThis !== "undefined" ? globalThis : this);
