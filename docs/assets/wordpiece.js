/* Attention Lab: the WordPiece tokenizer of all-MiniLM-L6-v2, in the browser (and under Node).
 *
 * It splits a sentence as Python's `tokenizers` does with the model's own
 * tokenizer.json, step by step:
 *   1. the added tokens ([CLS], [MASK] …) are cut out of the raw text, the
 *      longest at the leftmost place first, and kept whole;
 *   2. BERT's normaliser, on the rest: control and format characters dropped,
 *      every whitespace character made a space, a space on each side of a CJK
 *      ideograph, accents stripped (canonical decomposition, then the
 *      non-spacing marks dropped), each character lower-cased on its own;
 *   3. BERT's pre-tokeniser: words split at whitespace, and every punctuation
 *      mark a word of its own;
 *   4. each word cut into the longest piece the vocabulary has, then the
 *      longest "##" piece after it, and so on; a word with no such cut, or
 *      longer than max_input_chars_per_word characters, becomes [UNK];
 *   5. [CLS] before and [SEP] after.
 * Characters are code points, never UTF-16 units (a lone surrogate counts as
 * U+FFFD, which step 2 drops). The settings and the vocabulary come from
 * tokenizer.json, and which characters count as control, whitespace, CJK,
 * punctuation or non-spacing comes from the installed `tokenizers` itself
 * (its Unicode tables are older than the browser's): both are in the data
 * attnlab.site.build.tokenizer_file writes (the model's tokenizer.js).
 *
 * A classic script with no dependencies (Chromium refuses modules on
 * file://); install is self-contained, so a worker can be built from its
 * source. MIT licence, like the rest of the code.
 */
(function install(root) {
  "use strict";

  var CLASSES = ["removed", "whitespace", "chinese", "punctuation", "nonspacing"];
  var SPACE = 0x20;

  /** Whether code point c lies in one of the sorted inclusive ranges [first, last, first, last, …]. */
  function inRanges(ranges, c) {
    var low = 0;
    var high = ranges.length / 2 - 1;
    while (low <= high) {
      var middle = (low + high) >> 1;
      if (c < ranges[2 * middle]) { high = middle - 1; }
      else if (c > ranges[2 * middle + 1]) { low = middle + 1; }
      else { return true; }
    }
    return false;
  }

  /** The code points of text; a lone surrogate (no character) becomes U+FFFD. */
  function codePoints(text) {
    var out = [];
    for (var i = 0; i < text.length; i += 1) {
      var unit = text.charCodeAt(i);
      if (unit >= 0xD800 && unit <= 0xDBFF && i + 1 < text.length) {
        var next = text.charCodeAt(i + 1);
        if (next >= 0xDC00 && next <= 0xDFFF) {
          out.push((unit - 0xD800) * 0x400 + (next - 0xDC00) + 0x10000);
          i += 1;
          continue;
        }
      }
      out.push(unit >= 0xD800 && unit <= 0xDFFF ? 0xFFFD : unit);
    }
    return out;
  }

  /** The string of a list of code points (in slices: a long list would overflow the call's arguments). */
  function fromCodePoints(list) {
    var out = "";
    for (var i = 0; i < list.length; i += 4096) { out += String.fromCodePoint.apply(null, list.slice(i, i + 4096)); }
    return out;
  }

  /** Text cut at the added tokens: [{text, added}], the longest token at the leftmost place first. */
  function splitAdded(text, added) {
    var parts = [];
    var start = 0;
    var i = 0;
    while (i < text.length) {
      var found = "";
      for (var t = 0; t < added.length; t += 1) {
        if (added[t].length > found.length && text.startsWith(added[t], i)) { found = added[t]; }
      }
      if (found) {
        if (i > start) { parts.push({ text: text.slice(start, i), added: false }); }
        parts.push({ text: found, added: true });
        i += found.length;
        start = i;
      } else {
        i += 1;
      }
    }
    if (start < text.length) { parts.push({ text: text.slice(start), added: false }); }
    return parts;
  }

  /** Refuse data that lacks a setting or a class, naming it. */
  function checkedData(data) {
    if (!data || typeof data !== "object" || !Array.isArray(data.vocab) || !data.classes) {
      throw new TypeError("tokenizer data must be the object attnlab.site.build.tokenizer_file.tokenizer_data writes");
    }
    ["cleanText", "chineseChars", "stripAccents", "lowercase"].forEach(function (name) {
      if (typeof data[name] !== "boolean") { throw new TypeError("tokenizer data: " + name + " must be true or false"); }
    });
    CLASSES.forEach(function (name) {
      if (!Array.isArray(data.classes[name]) || data.classes[name].length % 2) {
        throw new TypeError("tokenizer data: classes." + name + " must be a flat list of ranges");
      }
    });
    return data;
  }

  /** A tokenizer for the data of one tokenizer.json: {tokenize(text) -> {tokens, ids}, limit}. */
  function tokenizer(given) {
    var data = checkedData(given);
    var classes = data.classes;
    var ids = new Map();
    data.vocab.forEach(function (token, id) { ids.set(token, id); });
    [data.unk, data.cls, data.sep].concat(data.added).forEach(function (token) {
      if (!ids.has(token)) { throw new RangeError("tokenizer data: " + JSON.stringify(token) + " is not in the vocabulary"); }
    });
    var has = function (name, c) { return inRanges(classes[name], c); };

    /** Step 2 on one stretch of text without added tokens: the normalised text. */
    function normalise(text) {
      var kept = [];
      codePoints(text).forEach(function (c) {
        if (data.cleanText && has("removed", c)) { return; }
        if (data.cleanText && has("whitespace", c)) { c = SPACE; }
        if (data.chineseChars && has("chinese", c)) { kept.push(SPACE, c, SPACE); } else { kept.push(c); }
      });
      var chars = kept;
      if (data.stripAccents) {
        chars = codePoints(fromCodePoints(kept).normalize("NFD"))
          .filter(function (c) { return !has("nonspacing", c); });
      }
      var out = "";
      chars.forEach(function (c) {
        var one = String.fromCodePoint(c);
        out += data.lowercase ? one.toLowerCase() : one;  // one at a time: no final-sigma rule
      });
      return out;
    }

    /** Step 3: the words of normalised text, each a list of code points. */
    function words(text) {
      var out = [];
      var word = [];
      var end = function () { if (word.length) { out.push(word); word = []; } };
      codePoints(text).forEach(function (c) {
        if (has("whitespace", c)) { end(); }
        else if (has("punctuation", c)) { end(); out.push([c]); }
        else { word.push(c); }
      });
      end();
      return out;
    }

    /** Step 4: one word (code points) as word pieces. */
    function pieces(word) {
      if (word.length > data.maxWordChars) { return [data.unk]; }
      var out = [];
      var start = 0;
      while (start < word.length) {
        var end = word.length;
        var found = null;
        while (start < end) {
          var piece = (start > 0 ? data.prefix : "") + fromCodePoints(word.slice(start, end));
          if (ids.has(piece)) { found = piece; break; }
          end -= 1;
        }
        if (found === null) { return [data.unk]; }
        out.push(found);
        start = end;
      }
      return out;
    }

    /** The word pieces of text with [CLS] and [SEP] around, and their ids. */
    function tokenize(text) {
      if (typeof text !== "string") { throw new TypeError("text must be a string, got " + typeof text); }
      var tokens = [data.cls];
      splitAdded(text, data.added).forEach(function (part) {
        if (part.added) { tokens.push(part.text); return; }
        words(normalise(part.text)).forEach(function (word) { tokens.push.apply(tokens, pieces(word)); });
      });
      tokens.push(data.sep);
      return { tokens: tokens, ids: tokens.map(function (token) { return ids.get(token); }) };
    }

    return { tokenize: tokenize, limit: data.limit, vocabSize: data.vocab.length };
  }

  var api = { tokenizer: tokenizer, codePoints: codePoints, install: install };
  root.attnlab = root.attnlab || {};
  root.attnlab.wordpiece = api;
  if (typeof module === "object" && module.exports) { module.exports = api; }
})(typeof globalThis !== "undefined" ? globalThis : this);
