// Game set-up: seats (which edge of the camera image seat 1 sits at), teams, rules, PIN.
"use strict";
(() => {
  const form = document.getElementById("setup");
  const EDGES = ["bottom", "right", "top", "left"];
  let edge = "bottom";
  const showEdges = () => {
    const start = EDGES.indexOf(edge);
    form.querySelectorAll(".edge-name").forEach((em) => {
      em.textContent = J.t("edge_" + EDGES[(start + Number(em.dataset.seat)) % 4]);
    });
    form.querySelectorAll(".edge").forEach((b) => b.classList.toggle("on", b.dataset.edge === edge));
  };
  form.querySelectorAll(".edge").forEach((b) => b.addEventListener("click", () => { edge = b.dataset.edge; showEdges(); }));
  const names = () => [0, 1, 2, 3].map((i) => form.elements["p" + i].value.trim() || `${J.t("player")} ${i + 1}`);
  const showTeams = () => {
    const n = names();
    document.getElementById("teams-line").textContent =
      `${J.t("team")} A: ${n[0]} & ${n[2]} · ${J.t("team")} B: ${n[1]} & ${n[3]}`;
  };
  form.addEventListener("input", showTeams);
  // Coiffeur and Differenzler have their own settings and no target; Weis counts by default in Coiffeur only.
  let variantShown = "schieber";
  const showVariant = () => {
    const v = form.elements.variant.value;
    document.getElementById("coiffeur-settings").hidden = v !== "coiffeur";
    document.getElementById("differenzler-settings").hidden = v !== "differenzler";
    document.getElementById("count-weis-box").hidden = v === "schieber";
    document.getElementById("target-settings").hidden = v !== "schieber";
    if (v !== variantShown) form.elements.count_weis.checked = v === "coiffeur";
    variantShown = v;
  };
  form.addEventListener("change", () => {
    showVariant();
    form.elements.target_other.hidden = form.elements.target.value !== "other";
    document.getElementById("custom-mult").hidden = form.elements.multipliers.value !== "custom";
  });
  showEdges();
  showTeams();
  // The players the table has had (web.stats: from the stored games), offered as you type
  // and as chips that fill the next free seat; and the last game's table in one tap.
  fetch("/api/players", { cache: "no-store" }).then((r) => r.json()).then((data) => {
    const seats = [0, 1, 2, 3].map((i) => form.elements["p" + i]);
    J.put(document.getElementById("known-players"), data.players.map((n) => J.el("option", { value: n })));
    const fill = (name) => {
      if (seats.some((s) => s.value.trim().toLowerCase() === name.toLowerCase())) return;
      const free = seats.find((s) => !s.value.trim());
      if (free) { free.value = name; showTeams(); }
    };
    J.put(document.getElementById("known-chips"), data.players.slice(0, 16).map((n) =>
      J.el("button", { type: "button", class: "chip known", "data-name": n, onclick: () => fill(n) }, n)));
    const last = document.getElementById("last-table");
    if (data.last_table) {
      last.hidden = false;
      last.addEventListener("click", () => { seats.forEach((s, i) => { s.value = data.last_table[i]; }); showTeams(); });
    }
    document.getElementById("known").hidden = !data.players.length;
  }).catch(() => {});
  J.cameraBox(document.getElementById("camera-box"));

  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const err = document.getElementById("setup-error");
    err.textContent = "";
    const f = form.elements;
    const target = f.target.value === "other" ? f.target_other.value.trim() : Number(f.target.value);
    const body = {
      players: names(),
      edge,
      variant: f.variant.value,
      target,
      multipliers: f.multipliers.value,
      end_order: f.end_order.value.split(","),
      weis_one_per_player: f.weis_one_per_player.checked,
      weis_needs_trick: f.weis_needs_trick.checked,
      weis_card_once: f.weis_card_once.checked,
      target_rule: f.target_exceeded.checked ? "exceeded" : "reached",
      new_pin: f.new_pin.value.trim(),
    };
    if (body.variant === "coiffeur") {
      body.coiffeur_rows = [...form.querySelectorAll(".cf-row")].map((i) => [i.dataset.contract, Number(i.value)]);
      body.coiffeur_match_bonus = Number(f.coiffeur_match_bonus.value);
    }
    if (body.variant === "differenzler") body.differenzler_rounds = Number(f.differenzler_rounds.value);
    if (body.variant !== "schieber") {
      body.count_weis = f.count_weis.checked;
      delete body.target;
      delete body.target_rule;
    }
    // A game continued from paper: the server checks the totals against the target.
    const prior = [f.prior_0.value.trim(), f.prior_1.value.trim()];
    if (body.variant === "schieber" && prior.some((p) => p !== "")) body.prior_totals = prior.map((p) => (p === "" ? 0 : Number(p)));
    if (body.multipliers === "custom") {
      body.custom_multipliers = {};
      for (const c of ["eicheln", "schilten", "rosen", "schellen", "obenabe", "undenufe"]) {
        body.custom_multipliers[c] = Number(f["m_" + c].value);
      }
    }
    const running = await J.endRunningFirst();
    if (!running.go) return;
    if (running.end) body.end_running = true;
    const res = await J.write("/api/games", body);
    if (!res) return;
    location.href = res.url;
  });
})();
