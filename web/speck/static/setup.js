// Speck set-up: names (first + last), Schreiber, games, first dealer; shows the dealer rotation.
"use strict";
(() => {
  const form = document.getElementById("speck-setup");
  const f = form.elements;
  let dealerTouched = false;
  const name = (i) => {
    const n = `${f["first" + i].value.trim()} ${f["last" + i].value.trim()}`.trim();
    return n || `${J.t("seat")} ${i + 1}`;
  };
  const show = () => {
    const games = Number(f.games.value);
    const first = Number(f.dealer.value);
    const list = document.getElementById("rotation");
    const items = [];
    for (let g = 0; g < games; g++) items.push(J.el("li", { text: name((first + g) % 4) }));
    J.put(list, items);
    for (const sel of [f.scorer, f.dealer]) {
      [...sel.options].forEach((o, i) => { o.textContent = `${J.t("seat")} ${i + 1} · ${name(i)}`; });
    }
  };
  f.dealer.addEventListener("change", () => { dealerTouched = true; });
  f.scorer.addEventListener("change", () => { if (!dealerTouched) f.dealer.value = f.scorer.value; });
  form.addEventListener("input", show);
  form.addEventListener("change", show);
  show();

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("setup-error");
    err.textContent = "";
    const players = [0, 1, 2, 3].map((i) => ({ first: f["first" + i].value.trim(), last: f["last" + i].value.trim() }));
    if (players.some((p) => !p.first || !p.last)) { err.textContent = J.t("name_missing"); return; }
    const body = {
      players,
      scorer: Number(f.scorer.value),
      dealer: Number(f.dealer.value),
      games: Number(f.games.value),
    };
    // A series continued from paper: the server checks the totals against games x 157.
    const prior = [0, 1, 2, 3].map((i) => f["prior" + i].value.trim());
    if (f.prior_games.value.trim() !== "" || prior.some((p) => p !== "")) {
      body.prior_games = Number(f.prior_games.value.trim() || 0);
      body.prior_totals = prior.map((p) => (p === "" ? 0 : Number(p)));
    }
    const running = await J.endRunningFirst();
    if (!running.go) return;
    if (running.end) body.end_running = true;
    const res = await J.write("/speck/api/games", body);
    if (!res) return;
    location.href = res.url;
  });
})();
