// The table's games: running, finished and abandoned ones, each with its score; the table can delete one.
"use strict";
(() => {
  const list = document.getElementById("games-list");
  const el = J.el, t = J.t;

  const variantOf = (g) => (g.config && g.config.variant) || "schieber";
  // Speck Jass and the Differenzler are every player for themselves; Schieber and Coiffeur have two teams of two
  const individual = (g) => ["speck", "differenzler"].includes(variantOf(g));

  function players(g) {
    const p = (g.config && g.config.players) || [];
    return individual(g) ? p.join(", ") : `${p[0] || ""} & ${p[2] || ""} – ${p[1] || ""} & ${p[3] || ""}`;
  }

  function score(g) {
    // the Differenzler counts penalties (lowest wins), Speck points per player
    if (variantOf(g) === "differenzler") return el("span", { class: "score-line", title: t("df_penalty"), text: (g.penalties || []).join(" · ") });
    if (individual(g)) return el("span", { class: "score-line", text: (g.player_totals || []).join(" · ") });
    const tot = g.totals ? g.totals.map((b) => b.total) : ["–", "–"];
    return el("span", { class: "score-line" }, el("b", { class: "a", text: tot[0] }), " : ", el("b", { class: "b", text: tot[1] }));
  }

  function statusText(g) {
    if (g.status === "finished") {
      const w = g.game_over && g.game_over.winner;
      return individual(g) ? t("finished") : `${t("finished")} · ${t("winner")}: ${t("team")} ${w === null || w === undefined ? "–" : "AB"[w]}`;
    }
    return t(g.status);  // "running" or "abandoned"
  }

  async function remove(g) {
    if (!await J.ask(`${t("delete_q")} #${g.id}`, [players(g), t("delete_body")], t("delete"))) return;
    const res = await J.write(`/api/games/${g.id}`, {}, {}, "DELETE");
    if (res) { J.toast(t("deleted")); load(); }
  }

  // Filters by player and variant (the server's ``?player=&variant=``), kept in the address.
  const filter = document.getElementById("games-filter");
  const query = () => {
    const q = new URLSearchParams();
    for (const k of ["player", "variant"]) if (filter.elements[k].value) q.set(k, filter.elements[k].value);
    return q;
  };
  filter.addEventListener("change", () => { history.replaceState(null, "", `/games?${query()}`); load(); });
  const asked = new URLSearchParams(location.search);
  if (asked.get("variant")) filter.elements.variant.value = asked.get("variant");

  async function load() {
    const q = query();
    if (!filter.elements.player.value && asked.get("player")) q.set("player", asked.get("player"));  // before the names arrive
    const data = await fetch(`/api/games?${q}`, { cache: "no-store" }).then((r) => r.json());
    const sel = filter.elements.player;
    if (sel.options.length === 1) {
      sel.append(...data.players.map((n) => el("option", { value: n, text: n })));
      if (asked.get("player")) sel.value = asked.get("player");
    }
    document.getElementById("history-csv").href = `/api/history.csv?${q}`;
    document.getElementById("history-json").href = `/api/history.json?${q}`;
    document.body.dataset.shown = String(data.games.length);
    if (!data.games.length) { J.put(list, el("li", { class: "muted", text: t("no_game") })); return; }
    J.put(list, data.games.slice().reverse().map((g) => el("li", { "data-game": g.id, "data-status": g.status, class: `game ${g.status}` },
      el("a", { href: g.config && g.config.variant === "speck" ? `/speck/${g.id}` : `/game/${g.id}` },
        el("span", {}, el("strong", { text: `#${g.id} ` }), players(g), el("br"),
          el("small", { class: "muted" }, `${g.created.replace("T", " ").slice(0, 16)} · `,
            el("span", { class: `status ${g.status}`, text: statusText(g) }), variantOf(g) !== "schieber" ? ` · ${t(variantOf(g))}` : "", g.rounds ? ` · ${g.rounds} ${t("round_n")}` : "")),
        score(g)),
      el("button", { type: "button", class: "danger icon delete", title: t("delete"), "aria-label": t("delete"), onclick: () => remove(g) }, "✕"))));
  }
  load();
})();
