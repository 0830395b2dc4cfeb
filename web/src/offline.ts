// Offline: the service worker (public/sw.js, its list of files written at build time by
// scripts/offline.mjs) keeps the app's files, so a reload without a network still loads the
// app and resumes a local game. Only in a built app: the dev server's files change.
export function registerOffline() {
  if (import.meta.env.DEV || !("serviceWorker" in navigator)) return;
  window.addEventListener("load", () => {
    navigator.serviceWorker.register("/sw.js").catch((e) => console.warn("no offline copy:", e));
  });
}
