/* Starts the theme's search worker inside assets/ur-search-worker.js (see there why). Loaded in
   the page's head, before the theme's script creates the worker. */
(function () {
  "use strict";
  var Native = window.Worker;
  if (!Native) { return; }
  var here = document.currentScript ? document.currentScript.src : window.location.href;
  var wrapper = new URL("ur-search-worker.js", here).href;
  window.Worker = function (url, options) {
    var address = new URL(String(url), window.location.href).href;
    if (/\/workers\/search\.[^/]*\.js$/.test(address)) {
      return new Native(wrapper + "#" + encodeURIComponent(address), options);
    }
    return new Native(url, options);
  };
  window.Worker.prototype = Native.prototype;
})();
