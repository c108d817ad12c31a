/* Attention Lab: site search answers text that arrives without a key press.
 *
 * Why: Material for MkDocs 9.8 (components/search/query/index.ts, the
 * `value$` of watchSearchQuery; bundle.*.min.js, `function ws`) reads the
 * search box only on `keyup`, on a focus change (1 ms after it) and once when
 * the search worker reports that its index is ready. It does not listen to
 * `input`. Text that enters the box with no key released after that, such as
 * a paste from the context menu, a drag and drop, dictation, an IME commit or
 * Playwright's fill(), is never sent to the worker: the reader sees no results
 * until they press some key.
 *
 * What: on every `input` in the search box, dispatch a `keyup` on the box
 * itself, so Material reads the new value at once. The event does not bubble,
 * so only the box's own listeners (Material's) see it; Material ignores a
 * value it has already sent. No storage, no network.
 *
 * A classic script: it runs from file:// as well as from a server. MIT licence.
 */
(function () {
  "use strict";

  document.addEventListener("input", function (event) {
    var box = event.target;
    if (box instanceof HTMLInputElement && box.matches("[data-md-component=search-query]")) {
      box.dispatchEvent(new KeyboardEvent("keyup"));
    }
  });
})();
