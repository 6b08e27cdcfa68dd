// Starts the app (src/main.tsx) once the page is drawn: the page the server rendered paints first,
// and the app's code, downloaded meanwhile (the build's modulepreload links), is evaluated after.
// Evaluated at once, it would hold the first paint for as long as it takes (vite.config.ts preloadApp).
(function () {
  var link = document.querySelector('link[rel="modulepreload"][data-app]');
  // The dev server has no build: it serves the entry as it is.
  var entry = link ? link.href : '/src/main.tsx';
  function start() {
    import(entry);
  }
  if (document.visibilityState === 'visible') {
    requestAnimationFrame(function () {
      setTimeout(start);
    });
  } else {
    start();
  }
})();
