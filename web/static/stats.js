// The statistics page: filters, the server's SVG charts (web.charts) and the figures as tables.
"use strict";
(() => {
  const el = J.el, t = J.t;
  const form = document.getElementById("stats-filter");
  const params = new URLSearchParams(location.search);
  const hours = (s) => (s >= 3600 ? `${Math.floor(s / 3600)} h ${String(Math.round((s % 3600) / 60)).padStart(2, "0")}` : `${Math.round(s / 60)} min`);
  const weis = (w) => (w ? `${w.label} (${w.points})` : "–");
  const query = () => {
    const q = new URLSearchParams();
    if (form.elements.variant.value) q.set("variant", form.elements.variant.value);
    if (form.elements.player.value) q.set("player", form.elements.player.value);
    return q;
  };

  function table(node, head, rows) {
    J.put(node, el("thead", {}, el("tr", {}, head.map((h) => el("th", { text: h })))),
      el("tbody", {}, rows.map((r) => el("tr", {}, r.map((c) => el("td", { text: c === null || c === undefined ? "–" : String(c) }))))));
  }

  function figuresRows(list) {
    return list.map((f) => [f.names.join(" & "), f.games, f.wins, f.bergpreise, f.matches_made, f.matches_received, weis(f.best_weis), hours(f.seconds)]);
  }

  async function load() {
    const q = query();
    const data = await fetch(`/api/stats?${q}`, { cache: "no-store" }).then((r) => r.json());
    document.getElementById("bergpreis-on").checked = data.bergpreis;
    document.getElementById("stats-none").hidden = data.games.length > 0;
    const head = [t("st_player"), t("st_games"), t("st_wins"), t("st_bergpreise"), t("st_matches_made"), t("st_matches_received"), t("st_best_weis"), t("st_time_played")];
    table(document.getElementById("players-table"), head, figuresRows(data.players));
    table(document.getElementById("pairs-table"), [t("st_pairs"), ...head.slice(1)], figuresRows(data.pairs));
    table(document.getElementById("games-table"),
      ["#", t("st_date"), t("st_variant"), t("st_players"), t("st_winner"), t("st_time"), t("st_bergpreis")],
      data.games.slice().reverse().map((g) => [g.game, (g.created || "").replace("T", " ").slice(0, 16), t(g.variant),
        g.sides.map((s) => s.join(" & ")).join(" – "), g.winners.map((w) => w.join(" & ")).join(", ") || "–",
        hours(g.seconds), g.bergpreis ? g.bergpreis.join(" & ") : "–"]));
    const theme = document.documentElement.dataset.theme || "dark";
    const stamp = Date.now();  // a new fetch after a change of filter or setting
    document.querySelectorAll("img.chart").forEach((img) => {
      const cq = new URLSearchParams(q);
      cq.set("theme", theme);
      cq.set("at", stamp);
      img.src = `/api/stats/${img.dataset.chart}.svg?${cq}`;
    });
    document.getElementById("export-csv").href = `/api/history.csv?${q}`;
    document.getElementById("export-json").href = `/api/history.json?${q}`;
    document.body.dataset.loaded = String(stamp);
  }

  fetch("/api/players", { cache: "no-store" }).then((r) => r.json()).then((data) => {
    const sel = form.elements.player;
    sel.append(...data.players.map((n) => el("option", { value: n, text: n })));
    if (params.get("player")) sel.value = params.get("player");
    if (params.get("variant")) form.elements.variant.value = params.get("variant");
    load();
  });
  form.addEventListener("change", () => {
    history.replaceState(null, "", `/stats?${query()}`);
    load();
  });
  document.getElementById("bergpreis-on").addEventListener("change", async (ev) => {
    const res = await J.write("/api/stats/settings", { bergpreis: ev.target.checked });
    if (!res) ev.target.checked = !ev.target.checked;
    load();
  });
})();
