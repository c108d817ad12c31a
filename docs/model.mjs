/* Attention Lab: the companion under Node, an ES module beside the guide's pages.
 *
 *   node model.mjs          the toy's baseline and the brief's contrasts, as `python -m attnlab` prints them
 *   node model.mjs --json   the same results as one JSON object, at full precision
 *
 *   import { compute } from "./model.mjs";
 *   compute({ token: "grid", causal: false })  // the browser lab's fields and numbers
 *
 * A thin wrapper with no maths and no numbers of its own: the calculation is assets/attnlab.js
 * (the browser lab's classic script, run here unchanged), the toy's constants assets/lab-data.js
 * and the contrasts assets/contrasts.js, both written by the build from the attnlab package. It
 * reads them from disk next to itself, so it works in the built site and in the unzipped offline
 * copy with no network. Node 18 or newer. MIT licence.
 */
import { readFileSync, realpathSync } from "node:fs";
import { fileURLToPath, pathToFileURL } from "node:url";

const SCRIPTS = ["lab-data.js", "attnlab.js", "contrasts.js"];

/** Run the site's classic scripts with `globalThis` bound to a fresh object; return that object. */
function load(names) {
  const scope = {};
  for (const name of names) {
    const url = new URL(`./assets/${name}`, import.meta.url);
    let source;
    try {
      source = readFileSync(url, "utf8");
    } catch (error) {
      throw new Error(`model.mjs needs ${fileURLToPath(url)} (${error.code}): run it from a built site ` +
                      "(mkdocs build) or the unzipped offline copy, where the build has written it");
    }
    new Function("globalThis", "exports", `${source}\n//# sourceURL=${url}`)(scope, undefined);
  }
  return scope;
}

const site = load(SCRIPTS);
const lab = site.attnlab;

/** The toy under the given controls: the same fields and numbers as attnlab.lab.compute(...).to_dict(). */
export const compute = (controls) => lab.compute(controls);
/** The controls validated, missing ones filled with the toy's defaults. */
export const controls = (given) => lab.controls(given);
/** A number with fixed decimals, rounded as Python's attnlab.text.fmt rounds it. */
export const fmt = lab.fmt;
/** The toy's constants, from attnlab.lab.toy_data(). */
export const toy = lab.toy();
/** The brief's contrasts, [{key, title, controls}], from attnlab.__main__.CONTRASTS. */
export const contrasts = site.ATTNLAB_CONTRASTS;

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

/** Every contrast's result, keyed as in `python -m attnlab --json`. */
export function report() {
  return Object.fromEntries(contrasts.map(({ key, controls: c }) => [key, compute(c)]));
}

/** What `node model.mjs [--json]` prints. */
export function main(argv) {
  const unknown = argv.filter((arg) => arg !== "--json");
  if (unknown.length) {
    throw new Error(`unknown argument(s) ${JSON.stringify(unknown)}; usage: node model.mjs [--json]`);
  }
  if (argv.includes("--json")) {
    return `${JSON.stringify(report(), null, 2)}\n`;
  }
  return `${contrasts.map(({ title, controls: c }) => describe(title, compute(c))).join("\n\n")}\n`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) {
  try {
    process.stdout.write(main(process.argv.slice(2)));
  } catch (error) {
    process.stderr.write(`model.mjs: ${error.message}\n`);
    process.exitCode = 2;
  }
}
