// Loaded on its own, ahead of the app (index.html): a click on the page the server rendered, made
// before the browser has taken the page over, would otherwise do nothing. It is held here and
// replayed on the same element once the app has taken over (src/ssr/TakenOver.tsx). Links
// are left alone: without the app they load their page from the server, which renders it.
(function () {
  var state = (window.__earlyClicks = window.__earlyClicks || {});
  state.loaded = true;
  // Loaded async, it may run after the app has taken the page over: then it holds nothing, or it
  // would swallow every click from then on.
  if (state.takenOver) return;
  var held = [];
  function hold(event) {
    var target = event.target;
    if (!(target instanceof Element) || !target.closest('#root') || target.closest('a[href]')) return;
    event.preventDefault();
    event.stopPropagation();
    held.push(target);
  }
  document.addEventListener('click', hold, true);
  state.release = function () {
    document.removeEventListener('click', hold, true);
    return held.splice(0);
  };
})();
