/* Attention Lab: the reader's progress, kept in the browser and shown where a reader looks for it.
 *
 * - Every <ol class="attnlab-checklist"> (attnlab.site.widgets.checklist()) remembers its ticks and
 *   says, live, how many of its steps are done ("3 of 8 checks complete"), with a reset.
 * - Every chapter (the pages assets/guide-data.js lists: not the home page, not the reference
 *   pages) gets an "I have read this chapter" box at its end, after the exercises, where a reader
 *   has read it (above the line that names what computed the page). The navigation marks the
 *   chapters read, and the home page's summary (widgets.reading()) says "n of N chapters read",
 *   with a reset.
 *
 * Keys in localStorage are scoped to this guide and its version ("attention-lab@0.1.0:…"):
 * copies of one version (the site, the unzipped offline copy) share a reader's ticks where the
 * browser gives them one storage, and a new version starts afresh, since its chapters and
 * checklist may have changed. Without storage (blocked site data, private mode) everything
 * works for the visit and says that it will be forgotten. Storage that is full still shows the ticks
 * it holds, and a reset still clears them (removing a key needs no space).
 *
 * Several tabs may be open at once. So a tick is never written as this page's whole set (which
 * would overwrite what another tab ticked since this one loaded): each change reads the stored
 * set, toggles its one step and writes that back, and every tab shows what another stored as soon
 * as the browser's storage event says so. A write that fails after the page loaded (the storage
 * full, site data blocked meanwhile) keeps the tick for the visit and tells the reader that ticks
 * will now be forgotten.
 *
 * Needs assets/guide-data.js loaded first. Classic script, no dependencies. MIT licence.
 */
(function () {
  "use strict";

  /** The guide's name, version and chapters, written by the build (attnlab.site.publish). */
  function guide() {
    var data = globalThis.ATTNLAB_GUIDE;
    if (!data || !data.name || !data.version || !Array.isArray(data.chapters)) {
      throw new Error("guide data is missing: load assets/guide-data.js before assets/progress.js");
    }
    return data;
  }

  var GUIDE = guide();
  var PREFIX = GUIDE.name + "@" + GUIDE.version + ":";
  var CHECKLIST_KEY = PREFIX + "checklist";
  var READ_PREFIX = PREFIX + "read:";
  var ROOT = new URL("..", document.currentScript.src).href;  // this script lives in assets/

  /* ---- storage that may be missing or refuse to work ---------------- */

  /** localStorage if it can be read, else null. */
  function openStorage() {
    try {
      var storage = window.localStorage;
      storage.getItem(PREFIX + "probe");
      return storage;
    } catch (error) {
      return null;
    }
  }

  /** Whether storage takes a write now: a full quota refuses one, yet still reads what it holds and lets a
   *  key be removed (which frees space), so the page shows the ticks stored and a reset still works. */
  function takesWrites(storage) {
    try {
      storage.setItem(PREFIX + "probe", "1");
      storage.removeItem(PREFIX + "probe");
      return true;
    } catch (error) {
      return false;
    }
  }

  var storage = openStorage();
  var writable = storage !== null && takesWrites(storage);
  var visit = {};  // what this visit remembers that storage does not: everything without storage, else failed writes
  var onForgetting = [];  // what to run once, when a write fails (the notes that say so)

  function load(key) {
    if (Object.prototype.hasOwnProperty.call(visit, key)) { return visit[key]; }
    try {
      return storage ? storage.getItem(key) : null;
    } catch (error) {
      return null;
    }
  }

  /** Store a value, or remove the key when value is null. A write that fails keeps the value for this
   *  visit and, the first time, tells the reader that ticks will be forgotten. */
  function save(key, value) {
    try {
      if (!storage) { throw new Error("no storage"); }
      if (value === null) { storage.removeItem(key); } else { storage.setItem(key, value); }
      delete visit[key];
    } catch (error) {  // quota or policy: the page keeps working for this visit
      visit[key] = value;
      if (storage && onForgetting.length) {
        onForgetting.splice(0).forEach(function (run) { run(); });
      }
    }
  }

  /* ---- small DOM helpers --------------------------------------------- */

  function element(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (name) { node.setAttribute(name, attributes[name]); });
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function all(selector) {
    return Array.prototype.slice.call(document.querySelectorAll(selector));
  }

  /** Where there is no storage, a note saying ticks last only while the page is open; where there is, the
   *  same note appears (and is announced) the first time a write fails. */
  function storageNote(parent) {
    if (!storage) {
      parent.appendChild(element("span", { "class": "attnlab-hint", "data-testid": "storage-note" },
        " This browser does not let the page store progress, so ticks last only while the page is open."));
      return;
    }
    var note = element("span", { "class": "attnlab-hint", role: "status", "data-testid": "storage-lost" });
    parent.appendChild(note);
    onForgetting.push(function () {
      note.textContent = " This browser has stopped storing progress: ticks from now on will be forgotten " +
                         "when the page is closed.";
    });
    if (!writable) { onForgetting.splice(0).forEach(function (run) { run(); }); }  // storage already full
  }

  /* ---- the checklist ------------------------------------------------- */

  function checkedSteps() {
    try {
      var steps = JSON.parse(load(CHECKLIST_KEY) || "[]");
      return Array.isArray(steps) ? steps : [];
    } catch (error) {
      return [];
    }
  }

  function stepBoxes() {
    return all(".attnlab-checklist input[data-step]");
  }

  /** The distinct steps of the boxes given (a page may show the checklist twice). */
  function distinctSteps(boxes) {
    return boxes.map(function (b) { return b.getAttribute("data-step"); })
      .filter(function (step, i, steps) { return steps.indexOf(step) === i; });
  }

  /** Every checklist's "n of N checks complete". */
  function showChecklistCounts() {
    var boxes = stepBoxes();
    var done = distinctSteps(boxes.filter(function (b) { return b.checked; })).length;
    var text = done + " of " + distinctSteps(boxes).length + " checks complete";
    all('[data-testid="checklist-count"]').forEach(function (count) {
      if (count.textContent !== text) { count.textContent = text; }
    });
  }

  /** Tick every checklist's boxes as storage says, and count them. */
  function showChecklist() {
    var steps = checkedSteps();
    stepBoxes().forEach(function (box) { box.checked = steps.indexOf(box.getAttribute("data-step")) >= 0; });
    showChecklistCounts();
  }

  /** Tick or untick one step in storage: the stored set as it is now (another tab may have changed it
   *  since this page loaded) with that step added or taken out. */
  function setStep(step, done) {
    var steps = checkedSteps().filter(function (other) { return other !== step; });
    if (done) { steps.push(step); }
    save(CHECKLIST_KEY, steps.length ? JSON.stringify(steps) : null);
  }

  /** Remember and count every change, and add the count and the reset. */
  function startChecklist(list) {
    list.querySelectorAll("input[data-step]").forEach(function (box) {
      box.addEventListener("change", function () {
        setStep(box.getAttribute("data-step"), box.checked);
        showChecklist();
      });
    });
    var tools = element("p", { "class": "attnlab-progress" });
    tools.appendChild(element("span", { "class": "attnlab-count", role: "status", "data-testid": "checklist-count" }));
    tools.appendChild(document.createTextNode(" "));
    var clear = element("button", { type: "button", "class": "md-button", "data-testid": "checklist-reset" },
                        "Clear the checklist");
    clear.addEventListener("click", function () {
      save(CHECKLIST_KEY, null);
      showChecklist();
    });
    tools.appendChild(clear);
    storageNote(tools);
    list.parentNode.insertBefore(tools, list.nextSibling);
  }

  /* ---- chapters read --------------------------------------------------- */

  /** The path of a link or address inside the site ("softmax.html"), or null outside it. */
  function sitePath(address) {
    var url = new URL(address, location.href);
    url.hash = "";
    url.search = "";
    if (url.href.indexOf(ROOT) !== 0) { return null; }
    var path = url.href.slice(ROOT.length);
    return path === "" || path.slice(-1) === "/" ? path + "index.html" : path;
  }

  function isRead(path) {
    return load(READ_PREFIX + path) === "1";
  }

  function setRead(path, read) {
    save(READ_PREFIX + path, read ? "1" : null);
    showReading();
  }

  /** The navigation's mark on a chapter read: a tick, and "(read)" for screen readers. */
  function readMark() {
    var mark = element("span", { "class": "attnlab-nav-read", "data-testid": "nav-read", title: "read" });
    mark.appendChild(element("span", { "aria-hidden": "true" }, "✓"));
    mark.appendChild(element("span", { "class": "attnlab-sr" }, " (read)"));
    return mark;
  }

  /** Mark the chapters read in the navigation, and say how many on the home page. */
  function showReading() {
    all('.md-nav--primary a.md-nav__link[href]:not([href^="#"])').forEach(function (link) {  // not the contents
      var path = sitePath(link.getAttribute("href"));
      var mark = link.querySelector(".attnlab-nav-read");
      var read = path !== null && GUIDE.chapters.indexOf(path) >= 0 && isRead(path);
      if (read && !mark) { link.appendChild(readMark()); }
      if (!read && mark) { link.removeChild(mark); }
    });
    var done = GUIDE.chapters.filter(isRead).length;
    var text = done + " of " + GUIDE.chapters.length + " chapters read";
    all('[data-testid="chapters-read"]').forEach(function (count) {
      if (count.textContent !== text) { count.textContent = text; }
    });
    var box = document.querySelector('[data-testid="read-mark"]');
    if (box) { box.checked = isRead(sitePath(location.href)); }
  }

  /** A "read" checkbox at the end of the chapter's text, before its provenance line. */
  function startReadMark(path) {
    var title = document.querySelector(".md-content h1");
    if (!title) { return; }
    var article = title.parentNode;
    var foot = article.querySelector(":scope > .attn-provenance");
    var mark = element("p", { "class": "attnlab-read" });
    var box = element("input", { type: "checkbox", id: "attnlab-read-mark", "data-testid": "read-mark" });
    box.addEventListener("change", function () { setRead(path, box.checked); });
    mark.appendChild(box);
    mark.appendChild(document.createTextNode(" "));
    mark.appendChild(element("label", { "for": "attnlab-read-mark" }, "I have read this chapter"));
    if (storage) { storageNote(mark); }  // silent until a write fails
    article.insertBefore(mark, foot);  // appended where a page has no provenance line
  }

  /** The home page's "n of N chapters read" and its reset, inside the placeholder widgets.reading() prints. */
  function startSummary(container) {
    var line = element("p", { "class": "attnlab-progress" });
    line.appendChild(element("strong", { "class": "attnlab-count", role: "status", "data-testid": "chapters-read" }));
    line.appendChild(document.createTextNode(" "));
    var forget = element("button", { type: "button", "class": "md-button", "data-testid": "read-reset" },
                         "Forget which chapters I have read");
    forget.addEventListener("click", function () {
      GUIDE.chapters.forEach(function (path) { save(READ_PREFIX + path, null); });
      showReading();
    });
    line.appendChild(forget);
    storageNote(line);
    container.appendChild(line);
  }

  /* ---- start ----------------------------------------------------------- */

  /** Elements matching selector not started yet, now marked as started. */
  function fresh(selector) {
    return all(selector).filter(function (node) {
      if (node.hasAttribute("data-attnlab-progress")) { return false; }
      node.setAttribute("data-attnlab-progress", "");
      return true;
    });
  }

  function start() {
    var here = sitePath(location.href);
    if (GUIDE.chapters.indexOf(here) >= 0 && !document.querySelector('[data-testid="read-mark"]')) {
      startReadMark(here);
    }
    fresh(".attnlab-checklist").forEach(startChecklist);
    fresh(".attnlab-reading").forEach(startSummary);
    showChecklist();
    showReading();
    window.addEventListener("storage", function (event) {  // another tab ticked a step or a chapter
      if (event.key === null || event.key.indexOf(PREFIX) === 0) {
        showChecklist();
        showReading();
      }
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
