/* Attention Lab: all-MiniLM-L6-v2 in the explorer's page, for a reader's own sentence.
 *
 * globalThis.attnlab.model:
 *   load({onProgress}) -> a promise, resolved once every model file is in and checked;
 *   encode(text)       -> a promise of {tokens, attentions[layer][head][query][key], sizes, outputs,
 *                         scores, scaled, queries, keys, values, lengths} (minilm.js's encode);
 *   release(result)    -> hands an encoded result the page no longer reads back to the worker, which
 *                         writes the next sentence into its memory (fresh memory is slow to come by);
 *   cancel()           -> stops a load under way and forgets what it had.
 * Nothing of the model is fetched before load() is called. The page's main thread only inserts
 * one <script> element per model file (assets/model/, listed by its manifest.js; scripts load from
 * disk and from a server alike, where fetch() does not) and hands each file's string, as 16-bit
 * code units, to a worker. The worker, built from a Blob of wordpiece.js's, kernel.js's and
 * minilm.js's own source (new Worker("file.js") is refused on file://, a Blob is not), checks every
 * file's SHA-256 against the manifest, builds the model and runs it: the page keeps answering the
 * reader while it computes. Each result comes back as flat Float64Arrays whose buffers the worker
 * transfers (no copy); the page indexes them through minilm.js's nested views. A missing, truncated
 * or damaged file stops the load with a message naming it.
 *
 * Classic script, no dependencies. MIT licence.
 */
(function (root) {
  "use strict";

  var FILES = "ATTNLAB_MODEL_FILES";
  var MANIFEST = "ATTNLAB_MODEL_MANIFEST";

  /** The folder of the model's files and of the explorer's scripts, from the explorer's markup. */
  function folders() {
    var marked = document.querySelector("[data-model]");
    if (!marked) { throw new Error("this page has no explorer, so it does not know where the model's files are"); }
    return { model: marked.getAttribute("data-model"), scripts: marked.getAttribute("data-scripts"),
             archive: marked.getAttribute("data-model-archive") };
  }

  /** Insert a classic script and wait for it; a file that cannot be read rejects, naming it and where it belongs. */
  function insertScript(src, name) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement("script");
      script.src = src;
      script.onload = function () { script.remove(); resolve(); };
      script.onerror = function () {
        script.remove();
        reject(fileError(name + " is missing: the model's files belong in assets/model/ beside the guide's pages" +
                         (folders().archive ? " (in a copy on disk, unzip " + folders().archive + " where you unzipped the guide)" : "")));
      };
      document.head.appendChild(script);
    });
  }

  function fileError(message) {
    var error = new Error(message);
    error.name = "ModelFileError";
    return error;
  }

  /** What the worker runs: the model's messages, after wordpiece.js and minilm.js installed themselves in it. */
  function workerMain(scope) {
    var minilm = scope.attnlab.minilm;
    var checked = {};
    var model = null;
    var spare = null;  // the buffers of a result the page gave back
    var chain = Promise.resolve();
    var failed = function (error) { scope.postMessage({ type: "failed", name: error.name, message: error.message }); };
    scope.onmessage = function (event) {
      var message = event.data;
      if (message.type === "file") {
        chain = chain.then(function () {
          return minilm.checkFile(message.entry, message.content).then(function (content) {
            checked[message.entry.name] = content;
            scope.postMessage({ type: "checked", name: message.entry.name });
          });
        });
        chain.catch(failed);
      } else if (message.type === "build") {
        chain.then(function () {
          model = minilm.build(message.manifest, checked);
          checked = null;
          minilm.run(model, "The model is ready.");  // compiles the arithmetic before the reader's first sentence
          scope.postMessage({ type: "ready" });
        }).catch(failed);
      } else if (message.type === "spare") {
        spare = message.buffers;
      } else if (message.type === "encode") {
        try {
          var result = minilm.run(model, message.text, spare);
          spare = null;
          scope.postMessage({ type: "encoded", id: message.id, result: result }, minilm.buffers(result));
        } catch (error) {
          scope.postMessage({ type: "refused", id: message.id, name: error.name, message: error.message });
        }
      }
    };
  }

  /** A worker running wordpiece.js, kernel.js, minilm.js and workerMain, from a Blob of their source; the Blob's address
   *  is kept until the worker has answered (revoked at once, the worker might not have read it yet). */
  function startWorker(job) {
    var parts = [root.attnlab.wordpiece.install, root.attnlab.kernel.install, root.attnlab.minilm.install,
                 workerMain].map(function (install) {
      return "(" + install.toString() + ")(self);\n";
    });
    var url = URL.createObjectURL(new Blob(parts, { type: "text/javascript" }));
    job.url = url;
    // the browser's own Worker: on file:// the theme's search shim puts a stand-in that cannot run a Blob in its
    // place, so the page template (overrides/main.html) keeps the original as attnlabWorker first
    return new (root.attnlabWorker || root.Worker)(url);
  }

  var current = null;  // the load under way or done: {promise, worker, cancelled, manifest}

  /** Hand every model file to the worker, one script at a time, then have it build the model. */
  function run(job, onProgress) {
    var where = folders();
    var manifest;
    var done = 0;
    var report = function (bytes) {
      done += bytes;
      if (onProgress) { onProgress(done, manifest.bytes); }
    };
    var next = function (index) {
      if (job.cancelled) { return Promise.reject(cancelled()); }
      if (index === manifest.files.length) { return Promise.resolve(); }
      var entry = manifest.files[index];
      return insertScript(where.model + entry.name, entry.name).then(function () {
        var files = root[FILES] || {};
        var content = files[entry.name];
        delete files[entry.name];
        if (entry.kind === "weights" && typeof content === "string") {
          var units = root.attnlab.minilm.codeUnits(content);
          job.worker.postMessage({ type: "file", entry: entry, content: units }, [units.buffer]);
        } else {
          job.worker.postMessage({ type: "file", entry: entry, content: content });
        }
        return job.checkedFile(entry.name).then(function () { report(entry.bytes); return next(index + 1); });
      });
    };
    return insertScript(where.scripts + "wordpiece.js", "wordpiece.js")
      .then(function () { return insertScript(where.scripts + "kernel.js", "kernel.js"); })
      .then(function () { return insertScript(where.scripts + "minilm.js", "minilm.js"); })
      .then(function () { return insertScript(where.model + "manifest.js", "manifest.js"); })
      .then(function () {
        manifest = root[MANIFEST];
        if (!manifest || !Array.isArray(manifest.files)) {
          throw fileError("manifest.js did not load as the model's manifest: the file is damaged");
        }
        job.manifest = manifest;
        job.worker = startWorker(job);
        job.listen();
        report(0);
        return next(0);
      })
      .then(function () {
        job.worker.postMessage({ type: "build", manifest: manifest });
        return job.ready;
      });
  }

  function cancelled() {
    var error = new Error("Loading was cancelled: nothing of the model is kept.");
    error.name = "AbortError";
    return error;
  }

  /** A load's bookkeeping: the worker's answers as promises. */
  function Job() {
    var self = this;
    this.cancelled = false;
    this.waiting = {};
    this.requests = {};
    this.next = 0;
    this.ready = new Promise(function (resolve, reject) { self.resolveReady = resolve; self.rejectReady = reject; });
    this.ready.catch(function () {});
  }

  Job.prototype.listen = function () {
    var self = this;
    this.worker.onmessage = function (event) {
      var m = event.data;
      if (self.url) { URL.revokeObjectURL(self.url); self.url = null; }
      if (m.type === "checked" && self.waiting[m.name]) { self.waiting[m.name].resolve(); }
      else if (m.type === "ready") { self.resolveReady(); }
      else if (m.type === "failed") { self.fail(Object.assign(new Error(m.message), { name: m.name })); }
      else if (m.type === "encoded" || m.type === "refused") {
        var request = self.requests[m.id];
        delete self.requests[m.id];
        if (m.type === "encoded") { request.resolve(root.attnlab.minilm.nested(m.result)); }
        else { request.reject(Object.assign(new Error(m.message), { name: m.name })); }
      }
    };
    this.worker.onerror = function (event) {
      self.fail(new Error("the model's worker stopped: " + (event.message || "an error the browser did not name")));
    };
  };

  /** A promise that the worker checked the file name. */
  Job.prototype.checkedFile = function (name) {
    var self = this;
    return new Promise(function (resolve, reject) { self.waiting[name] = { resolve: resolve, reject: reject }; });
  };

  /** Reject everything waiting on the worker with error. */
  Job.prototype.fail = function (error) {
    var self = this;
    Object.keys(this.waiting).forEach(function (name) { self.waiting[name].reject(error); });
    Object.keys(this.requests).forEach(function (id) { self.requests[id].reject(error); });
    this.waiting = {};
    this.requests = {};
    this.rejectReady(error);
  };

  /** Load the model (once): a promise resolved when it is ready; options.onProgress(bytes, total) as files arrive. */
  function load(options) {
    if (current) { return current.promise; }
    var job = new Job();
    current = job;
    job.promise = run(job, (options || {}).onProgress).then(function () { job.done = true; }, function (error) {
      if (job.worker) { job.worker.terminate(); }
      if (current === job) { current = null; }
      throw job.cancelled ? cancelled() : error;
    });
    return job.promise;
  }

  /** Stop a load under way; a loaded model is kept. */
  function cancel() {
    var job = current;
    if (!job || job.done) { return; }
    job.cancelled = true;
    job.fail(cancelled());
  }

  /** The sentence through the loaded model, in the worker: a promise of minilm.js's result. */
  function encode(text) {
    if (typeof text !== "string") {
      return Promise.reject(new TypeError("encode takes the sentence as a string, got " + String(text)));
    }
    var job = current;
    if (!job || !job.done) { return Promise.reject(new Error("the model is not loaded: call attnlab.model.load() first")); }
    var id = job.next++;
    return new Promise(function (resolve, reject) {
      job.requests[id] = { resolve: resolve, reject: reject };
      job.worker.postMessage({ type: "encode", id: id, text: text });
    });
  }

  /** Give the worker back the memory of a result from encode, once nothing reads it; a second time, nothing. */
  function release(result) {
    var spare = root.attnlab.minilm.buffers(result);
    if (loaded() && spare.every(function (buffer) { return buffer.byteLength > 0; })) {  // not yet given back
      current.worker.postMessage({ type: "spare", buffers: spare }, spare);
    }
  }

  function loaded() { return Boolean(current && current.done); }

  root.attnlab = root.attnlab || {};
  root.attnlab.model = {
    load: function (options) { return load(options).then(function () { return root.attnlab.model; }); },
    encode: encode,
    release: release,
    cancel: cancel,
    loaded: loaded,
  };
})(typeof globalThis !== "undefined" ? globalThis : this);
