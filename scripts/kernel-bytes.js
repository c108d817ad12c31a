#!/usr/bin/env node
/* Compile docs/assets/kernel.wat with wat2wasm (npm package wabt, pinned in package-lock.json) and write its bytes,
 * as base64, into the BYTES line of docs/assets/kernel.js. With --check, change nothing: exit 1, saying so, when
 * kernel.js does not hold the bytes kernel.wat compiles to (tests/node/test_kernel_js.py runs this). */
"use strict";
const fs = require("fs");
const path = require("path");

const root = path.resolve(__dirname, "..");
const wat = path.join(root, "docs", "assets", "kernel.wat");
const js = path.join(root, "docs", "assets", "kernel.js");
const LINE = /^ {2}var BYTES = "[A-Za-z0-9+/=]*";$/m;

require(require.resolve("wabt", { paths: [root] }))().then((wabt) => {
  const parsed = wabt.parseWat("kernel.wat", fs.readFileSync(wat, "utf8"), { simd: true });
  parsed.validate();
  const bytes = Buffer.from(parsed.toBinary({ write_debug_names: false }).buffer).toString("base64");
  const source = fs.readFileSync(js, "utf8");
  if (!LINE.test(source)) {
    throw new Error(js + " has no line `  var BYTES = \"…\";` to hold the module's bytes");
  }
  const updated = source.replace(LINE, `  var BYTES = "${bytes}";`);
  if (process.argv.includes("--check")) {
    if (updated !== source) {
      process.stderr.write("docs/assets/kernel.js does not hold the bytes of kernel.wat: run node scripts/kernel-bytes.js\n");
      process.exit(1);
    }
  } else {
    fs.writeFileSync(js, updated);
  }
}).catch((error) => { process.stderr.write(error.message + "\n"); process.exit(1); });
