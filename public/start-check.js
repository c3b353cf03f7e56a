/*
 * Rollcall's start check: where the app's own code fails to start (a copy of a script the service
 * worker stored damaged, served from its precache at every visit, online or off), the player sees
 * a message and a way out, not a blank page. A classic script of its own, run before the app's
 * module (the page's Content-Security-Policy allows no inline script): it must work when nothing
 * of the bundle does, so it depends on nothing and stays small. src/main.ts tells it that the
 * app has started (START_EVENT, src/app/start-check.ts); docs/architecture.md, "Precache".
 */
(function () {
  'use strict';
  var START_EVENT = 'rollcall:started';
  // after an error (a script that did not load or would not run), how long the app has to start
  // anyway before the message shows; without one, how long a start may take at all (a first
  // visit on a slow line included). The message goes again if the app starts after all.
  var AFTER_ERROR_MS = 3000;
  var AT_MOST_MS = 20000;
  var script = document.currentScript;
  // asked for once more to learn whether the network answers: a search param that no route of the
  // service worker matches (its precache matches URLs exactly), which the host ignores
  var probe = script && script.src ? script.src + '?rollcall-repair=' + Date.now() : null;
  var started = false;
  var message = null;
  var timer = setTimeout(show, AT_MOST_MS);

  window.addEventListener(START_EVENT, function () {
    started = true;
    clearTimeout(timer);
    if (message) message.remove();
  });
  // in the capture phase: a script or style sheet that fails to load fires `error` on its element
  window.addEventListener(
    'error',
    function () {
      if (started) return;
      clearTimeout(timer);
      timer = setTimeout(show, AFTER_ERROR_MS);
    },
    true,
  );

  function element(tag, text) {
    var el = document.createElement(tag);
    if (text) el.textContent = text;
    return el;
  }

  function show() {
    if (started || message) return;
    // styled through the CSSOM (the policy refuses inline styles in markup), apart from the
    // app's style sheet, which may be the damaged file; system colours follow dark mode
    message = element('section');
    message.setAttribute('role', 'alert');
    message.id = 'start-failed';
    message.style.cssText =
      'position:fixed;inset:0;z-index:2147483647;overflow:auto;box-sizing:border-box;padding:1.5rem;' +
      'color-scheme:light dark;background:Canvas;color:CanvasText;font:1.125rem/1.5 system-ui,sans-serif';
    var heading = element('h1', 'Rollcall could not start');
    heading.style.cssText = 'font-size:1.5rem;margin:0 0 1rem';
    var said = element('p', 'A stored copy of the app may be damaged. Your games are safe on this device.');
    var how = element('p', 'Repairing downloads the app again, so it needs an internet connection once.');
    var button = element('button', 'Repair and reload');
    button.type = 'button';
    button.style.cssText = 'min-width:44px;min-height:44px;padding:0.5rem 1rem;font:inherit;cursor:pointer';
    var status = element('p');
    status.setAttribute('role', 'status');
    button.addEventListener('click', function () {
      repair(button, status);
    });
    message.append(heading, said, how, button, status);
    document.body.append(message);
    button.focus();
  }

  function repair(button, status) {
    button.disabled = true;
    status.textContent = 'Repairing…';
    fetch(probe || location.href, { cache: 'no-store' })
      .then(function (response) {
        if (!response.ok) throw new Error(String(response.status));
      })
      .then(
        function () {
          // every stored copy of the app's files: Workbox's precache and the reader's inflated
          // wasm (Cache Storage holds nothing else). The games are in IndexedDB, never touched.
          var emptied = 'caches' in window ? caches.keys().then(function (names) {
            return Promise.all(names.map(function (name) { return caches.delete(name); }));
          }) : Promise.resolve();
          var unregistered = 'serviceWorker' in navigator ? navigator.serviceWorker.getRegistrations().then(function (registrations) {
            return Promise.all(registrations.map(function (registration) { return registration.unregister(); }));
          }) : Promise.resolve();
          // reloaded whatever went wrong here: the next start fetches what is not stored anew
          return Promise.all([emptied, unregistered]).catch(function () {}).then(function () {
            location.reload();
          });
        },
        function () {
          button.disabled = false;
          status.textContent = 'No connection: connect to the internet, then tap Repair and reload again.';
        },
      );
  }
})();
