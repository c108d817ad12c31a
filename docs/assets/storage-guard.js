/* Attention Lab: the theme's storage helpers must not throw where site data is blocked. MIT licence.

   The theme defines __md_get and __md_set in an inline script whose default
   argument reads localStorage outside any try. Where the browser blocks site
   data, reading it throws, and every page then reports uncaught errors from
   the palette script and the theme's bundle. The page template loads this
   script right after that definition: each helper is wrapped so that a read
   that fails returns nothing and a write that fails is dropped, which is what
   the theme does anyway when an entry is missing. */
(function (get, set) {
  __md_get = function () {
    try { return get.apply(this, arguments); } catch (e) { return null; }
  };
  __md_set = function () {
    try { set.apply(this, arguments); } catch (e) { /* storage blocked: keep nothing */ }
  };
})(__md_get, __md_set);
