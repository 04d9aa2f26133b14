// The set-up page's mounting check: the card length the camera measured and whether it is
// enough (from /api/mounting, refreshed every 2 s), and on request the live picture with
// what the camera sees outlined (it shows the table, so it needs the table PIN).
(() => {
  const panel = document.getElementById("mounting");
  if (!panel) return;
  const verdict = document.getElementById("mounting-verdict");
  const img = document.getElementById("mounting-view");
  const fill = (text, m) => text.replace("{px}", Math.round(m.card_length_px)).replace("{good}", m.good_px).replace("{least}", m.least_px);
  async function refresh() {
    try {
      const r = await fetch("/api/mounting", { cache: "no-store" });
      const m = await r.json();
      if (!m.available) { panel.hidden = true; return; }
      panel.hidden = false;
      const key = { unknown: "measuring", good: "good", small: "small", "too-small": "tooSmall" }[m.state] || "measuring";
      verdict.textContent = fill(panel.dataset[key], m);
      verdict.className = m.state === "good" ? "ok" : (m.state === "unknown" ? "muted" : "error");
      verdict.dataset.state = m.state;
    } catch (e) { /* offline for a moment: keep what is shown */ }
  }
  let asking = false;
  async function show() {
    if (asking) return;  // the PIN dialog is open: the 2 s refresh waits for it
    const r = await fetch("/api/mounting/view.jpg", { cache: "no-store" });  // the session cookie signs it
    if (r.status === 403) {
      asking = true;
      const signedIn = await J.askPin(await r.text());
      asking = false;
      if (signedIn) show();
      return;
    }
    if (!r.ok) { J.toast(await r.text()); return; }
    const old = img.src;
    img.src = URL.createObjectURL(await r.blob());
    img.hidden = false;
    if (old.startsWith("blob:")) URL.revokeObjectURL(old);
  }
  document.getElementById("mounting-show").addEventListener("click", () => {
    show();
    if (!img.dataset.live) { img.dataset.live = "1"; setInterval(() => { if (!document.hidden) show(); }, 2000); }
  });
  refresh();
  setInterval(refresh, 2000);
})();
