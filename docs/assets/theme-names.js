/* Attention Lab: accessible names for three controls of the theme. MIT licence.

   Material renders the search dialog without a name, and the checkboxes
   behind the search and navigation buttons with labels that hold only an
   icon, which an accessibility scan (axe) reports on every page. Loaded at
   the end of the page, this names exactly those elements. */
(function () {
  var names = {
    '.md-search[role="dialog"]': "Search",
    "#__search": "Open search",
    "#__drawer": "Open navigation"
  };
  Object.keys(names).forEach(function (selector) {
    var element = document.querySelector(selector);
    if (element && !element.hasAttribute("aria-label")) element.setAttribute("aria-label", names[selector]);
  });
})();
