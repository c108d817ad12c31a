/* Attention Lab: content too wide for the column (tables, maps, formulas) scrolls sideways in its own
 * box, and says so: a tab stop for the keyboard, a name for screen readers (caption or column headers),
 * a fade on the side where more is hidden and a line above asking to scroll. The cue follows scrolling
 * and the window's size; a box that fits gets none of it. Classic script, no dependencies. MIT licence.
 */
(function () {
  "use strict";

  // Material wraps Markdown tables in .md-typeset__scrollwrap; the guide's maps and the lab's tables have their own boxes
  var BOXES = ".md-typeset__scrollwrap, .attn-map-scroll, .attnlab-scroll, .md-typeset math[display='block']";
  var HINT = "Scroll sideways for more \u2192";

  /** A short name for a box with none: its table's caption, else its column headers. */
  function nameOf(box) {
    var caption = box.querySelector("caption");
    if (caption) { return caption.textContent.trim(); }
    var headers = Array.prototype.map.call(box.querySelectorAll("thead th"), function (th) {
      return th.textContent.trim();
    }).filter(Boolean);
    return headers.length ? "Table: " + headers.join(", ") : "Wide content";
  }

  /** Show or hide box's cue, tab stop and name, from whether its content overflows and where it is scrolled. */
  function refresh(box) {
    var hidden = box.scrollWidth - box.clientWidth;
    var wide = hidden > 1;
    box.classList.toggle("attnlab-more-left", wide && box.scrollLeft > 1);
    box.classList.toggle("attnlab-more-right", wide && box.scrollLeft < hidden - 1);
    var hint = box.previousElementSibling;
    if (hint && hint.classList.contains("attnlab-scroll-hint")) { hint.hidden = !wide; }
    if (wide) {
      box.setAttribute("tabindex", "0");
      if (box.tagName.toLowerCase() !== "math" && !box.hasAttribute("aria-label")) {
        box.setAttribute("role", "group");
        box.setAttribute("aria-label", nameOf(box));
      }
    } else if (box.hasAttribute("data-attnlab-focusable")) {
      box.removeAttribute("tabindex");
    }
  }

  /** Start watching one box: a hint line before it, and a refresh on scroll and on every change of size. */
  function watch(box, observer) {
    if (box.hasAttribute("data-attnlab-scroll")) { return; }
    box.setAttribute("data-attnlab-scroll", "");
    if (!box.hasAttribute("tabindex")) { box.setAttribute("data-attnlab-focusable", ""); }  // ours to take back
    var hint = document.createElement("span");
    hint.className = "attnlab-scroll-hint";
    hint.setAttribute("aria-hidden", "true");  // the box's tab stop and name already tell a screen reader
    hint.textContent = HINT;
    hint.hidden = true;
    box.parentNode.insertBefore(hint, box);
    box.addEventListener("scroll", function () { refresh(box); }, { passive: true });
    if (observer) {
      observer.observe(box);
      if (box.firstElementChild) { observer.observe(box.firstElementChild); }
    }
    // at the next frame, when whatever is still being drawn with the box is in: no extra layout forced now
    requestAnimationFrame(function () { refresh(box); });
  }

  var observer = typeof ResizeObserver === "function" ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var box = entry.target.matches(BOXES) ? entry.target : entry.target.parentElement;
      if (box) { refresh(box); }
    });
  }) : null;

  /** Watch every box on the page not yet watched (tables are wrapped by the theme's script, maybe later than us). */
  function scan() {
    Array.prototype.forEach.call(document.querySelectorAll(BOXES), function (box) { watch(box, observer); });
  }

  if (document.readyState === "loading") { document.addEventListener("DOMContentLoaded", scan); } else { scan(); }
  window.addEventListener("load", scan);
  globalThis.attnlabScrollBoxes = { scan: scan };
})();
