/* Attention Lab: the companion under Node, an ES module beside the guide's pages.
 *
 *   node model.mjs          the toy's baseline, the brief's contrasts and WE-002, as `python -m attnlab` prints them
 *   node model.mjs --json   the contrasts' results as one JSON object, at full precision
 *   node model.mjs --help   how to use it
 *
 *   import { compute } from "./model.mjs";
 *   compute({ token: "grid", causal: false, valueY: 4 })  // the browser lab's fields and numbers
 *
 * A thin wrapper with no maths and no numbers of its own: the calculation is assets/attnlab.js
 * (the browser lab's classic script, run here unchanged), the toy's constants assets/lab-data.js
 * and the contrasts and WE-002's inputs assets/contrasts.js, both written by the build from the attnlab package. It
 * reads them from disk next to itself, so it works in the built site and in the unzipped offline
 * copy with no network. Node 18 or newer. MIT licence.
 */
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const SCRIPTS = ["lab-data.js", "attnlab.js", "contrasts.js"];
/** Whether Node runs this file itself (`node model.mjs`), not a script importing it. */
const RUN = Boolean(process.argv[1]) && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;

/** Run the site's classic scripts with `globalThis` bound to a fresh object; return that object. */
function load(names) {
  const scope = {};
  for (const name of names) {
    const url = new URL(`./assets/${name}`, import.meta.url);
    let source;
    try {
      source = readFileSync(url, "utf8");
    } catch (error) {
      const message = `model.mjs needs ${fileURLToPath(url)} (${error.code}): run it from a built site ` +
                      "(mkdocs build) or the unzipped offline copy (attention-lab-<version>.zip on the guide's " +
                      "home page), where the build has written it";
      if (RUN) {  // one line, no stack trace
        process.stderr.write(`node model.mjs: ${message}\n`);
        process.exit(2);
      }
      throw new Error(message);
    }
    new Function("globalThis", "exports", `${source}\n//# sourceURL=${url}`)(scope, undefined);
  }
  return scope;
}

/** `value` frozen all the way down: the data shared by every call cannot be changed by a caller. */
function frozen(value) {
  if (value && typeof value === "object") {
    Object.values(value).forEach(frozen);
    Object.freeze(value);
  }
  return value;
}

const site = load(SCRIPTS);
["ATTNLAB_TOY", "ATTNLAB_CONTRASTS", "ATTNLAB_WE002"].forEach((name) => frozen(site[name]));
const lab = site.attnlab;

/** The toy under the given controls (camelCase names, snake_case aliases): the numbers of
 *  attnlab.lab.compute(...).to_dict(), under JavaScript's names (weightMap, controls.queryScale). */
export const compute = (controls) => lab.compute(controls);
/** The controls validated, missing ones filled with the toy's defaults, under their camelCase names. */
export const controls = (given) => lab.controls(given);
/** A number with fixed decimals, rounded as Python's attnlab.text.fmt rounds it. */
export const fmt = lab.fmt;
/** The toy's constants, from attnlab.lab.toy_data() (frozen, as are the contrasts and WE-002's inputs). */
export const toy = lab.toy();
/** The brief's contrasts, [{key, title, controls}], from attnlab.__main__.CONTRASTS. */
export const contrasts = site.ATTNLAB_CONTRASTS;

/** WE-002's inputs (attnlab.examples) and the heading `python -m attnlab` prints above its numbers. */
export const we002 = site.ATTNLAB_WE002;

/** A row vector as attnlab.text.vector writes it: "[0.284, 0.140, 0.576]". */
export function vector(values, decimals = 3) {
  return `[${values.map((x) => fmt(x, decimals)).join(", ")}]`;
}

/** A few readable lines for one result, as `python -m attnlab` prints them. */
export function describe(title, r) {
  const visible = `[${r.visible.map((v) => (v ? "True" : "False")).join(", ")}]`;
  return [
    title,
    `  query ${r.token.padEnd(5)} ${vector(r.query)}`,
    `  scaled scores  ${vector(r.scaled)}`,
    `  visible        ${visible}`,
    `  weights        ${vector(r.weights)}`,
    `  output         ${vector(r.output)}`,
  ].join("\n");
}

/** WE-002's lines, as `python -m attnlab` prints them after the contrasts (six decimals). */
export function describeWe002() {
  const r = lab.attend(we002.query, we002.keys, we002.values);
  return [
    we002.heading,
    `  scaled logits  ${vector(r.scaled, 6)}`,
    `  weights        ${vector(r.weights, 6)}`,
    `  output         ${vector(r.output, 6)}`,
  ].join("\n");
}

/** Every contrast's result, keyed as in `python -m attnlab --json` (fields in JavaScript's camelCase). */
export function report() {
  return Object.fromEntries(contrasts.map(({ key, controls: c }) => [key, compute(c)]));
}

export const USAGE = `usage: node model.mjs [--json] [--help]

The companion of Attention Lab under Node: the lab's baseline, the brief's contrasts
and the worked example WE-002, the same text as \`python -m attnlab\`.

options:
  --json   print the contrasts' results as one JSON object, at full precision
  --help   print this message and exit
`;

/** What `node model.mjs [--json | --help]` prints. */
export function main(argv) {
  if (argv.includes("--help") || argv.includes("-h")) {
    return USAGE;
  }
  const unknown = argv.filter((arg) => arg !== "--json");
  if (unknown.length) {
    throw new Error(`unknown argument(s) ${unknown.join(" ")}; usage: node model.mjs [--json] [--help]`);
  }
  if (argv.includes("--json")) {
    return `${JSON.stringify(report(), null, 2)}\n`;
  }
  const blocks = contrasts.map(({ title, controls: c }) => `${describe(title, compute(c))}\n\n`);
  return `${blocks.join("")}${describeWe002()}\n`;
}

/** Write `text` to standard output; a reader's closed pipe (`| head`) ends the run quietly with status 1, any
 *  other failure to write (a full disk) with one line on stderr and status 1, as `python -m attnlab` does. */
function emit(text) {
  process.stdout.on("error", (error) => {
    if (error.code !== "EPIPE") {
      process.stderr.write(`node model.mjs: cannot write to standard output: ${error.code || error.message}\n`);
    }
    process.exit(1);
  });
  process.stdout.write(text);
}

if (RUN) {
  let text;
  try {
    text = main(process.argv.slice(2));
  } catch (error) {
    process.stderr.write(`node model.mjs: ${error.message}\n`);
    process.exitCode = 2;
  }
  if (text !== undefined) {
    emit(text);
  }
}
