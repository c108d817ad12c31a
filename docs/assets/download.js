/* Attention Lab: the links to the offline copy say how big it is, or that this is the copy.
 *
 * assets/download-data.js, written by the build once the zip is made (attnlab.site.offline),
 * sets globalThis.ATTNLAB_DOWNLOAD: in the site, the zip's name and size, which go into every
 * link marked data-attnlab-download ("(ZIP, 1.1 MiB)"); inside the zip, that this is the offline
 * copy, and each link becomes a line saying so instead of offering a file the reader already
 * has. The size cannot be written into the pages themselves: the zip holds the pages.
 *
 * Classic script, no dependencies. MIT licence.
 */
(function () {
  "use strict";

  var download = globalThis.ATTNLAB_DOWNLOAD;
  if (!download) { return; }

  Array.prototype.forEach.call(document.querySelectorAll("[data-attnlab-offline]"), function (line) {
    var link = line.querySelector("[data-attnlab-download]");
    if (link) { link.setAttribute("href", link.getAttribute("href").replace(/index\.html$/, download.file)); }
    line.hidden = false;
  });

  Array.prototype.forEach.call(document.querySelectorAll("[data-attnlab-download]"), function (link) {
    if (download.offline) {
      var note = document.createElement("span");
      note.setAttribute("data-testid", "offline-copy");
      note.textContent = "You are reading the offline copy: every page, the search and the lab work from this folder.";
      link.parentNode.replaceChild(note, link);
      return;
    }
    var size = link.querySelector("[data-attnlab-download-size]");
    if (size) { size.textContent = "(ZIP, " + download.size + ")"; }
  });
})();
