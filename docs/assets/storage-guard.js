/* Attention Lab: the theme's storage helpers must not throw, whatever the browser's storage holds. MIT licence.

   The theme defines __md_get and __md_set in an inline script whose default
   argument reads localStorage outside any try. Where the browser blocks site
   data, reading it throws, and every page then reports uncaught errors from
   the palette script and the theme's bundle. Both also trust a stored
   palette: one they cannot use (an automatic palette the page has no inputs
   for, a colour key that is no attribute name, text that is not JSON)
   throws on every page.

   The page template (overrides/main.html) loads this script right after the
   theme's definition: each helper is wrapped so that a read that fails
   returns nothing, a stored palette is handed out only if it fits the page's
   palette inputs as the theme itself stores it (index of one input, color its
   four data-md-color-* attributes), and a write that fails is dropped, which
   is what the theme does anyway when an entry is missing. */
(function (get, set) {
  var COLOR = ["media", "scheme", "primary", "accent"];

  function fits(palette) {
    var inputs = document.getElementsByName("__palette");
    var index = palette && palette.index;
    var color = palette && palette.color;
    return Number.isInteger(index) && index >= 0 && index < inputs.length
      && !!color && typeof color === "object" && Object.keys(color).length === COLOR.length
      && COLOR.every(function (key) { return color[key] === inputs[index].getAttribute("data-md-color-" + key); });
  }

  __md_get = function (key) {
    var value;
    try { value = get.apply(this, arguments); } catch (e) { return null; }
    return key === "__palette" && value !== null && !fits(value) ? null : value;
  };
  __md_set = function () {
    try { set.apply(this, arguments); } catch (e) { /* storage blocked: keep nothing */ }
  };
})(__md_get, __md_set);
