// Deck enrolment: list and choose decks, capture rows of cards, fix labels, save with progress.
"use strict";
(() => {
  const $ = (id) => document.getElementById(id);
  const { el, put, t } = J;

  // Any method, any body, with this phone's session (asks for the PIN when the server wants it).
  async function call(method, url, body) {
    for (let attempt = 0; attempt < 3; attempt++) {
      const headers = {};
      let payload = body;
      if (body && !(body instanceof FormData)) { headers["Content-Type"] = "application/json"; payload = JSON.stringify(body); }
      const r = await fetch(url, { method, headers, body: payload });
      const data = await r.json().catch(() => ({ error: r.statusText }));
      if (r.status === 403 && /PIN/.test(data.error || "")) { if (!(await J.askPin())) return null; continue; }
      if (!r.ok) { J.toast(J.errorText(data) || r.statusText, true); return null; }
      return data;
    }
    return null;
  }

  async function loadDecks() {
    const data = await (await fetch("/enroll/api/decks")).json();
    const rows = [{ slug: "builtin", name: t("enroll_builtin") }, ...data.decks];
    put($("deck-list"), rows.map((d) => {
      const active = d.slug === data.active;
      const thumb = d.slug === "builtin" ? "/static/cards/eicheln-ass.png" : `/enroll/decks/${d.slug}/cards/${(d.cards && Object.keys(d.cards)[0]) || "back"}.png`;
      return el("li", { class: active ? "active" : "" },
        el("img", { src: thumb, alt: "" }),
        el("span", { text: d.name + (d.missing && d.missing.length ? ` (${d.missing.length}?)` : "") }),
        active ? el("span", { class: "muted small", text: t("enroll_active") })
          : el("button", { type: "button", onclick: async () => { if (await call("POST", "/enroll/api/decks/active", { deck: d.slug })) loadDecks(); } }, t("enroll_use")),
        d.slug === "builtin" ? null : el("button", { type: "button", class: "ghost", onclick: async () => {
          if (confirm(`${t("enroll_delete")}: ${d.name}?`) && await call("DELETE", `/enroll/api/decks/${d.slug}`)) loadDecks();
        } }, t("enroll_delete")));
    }));
  }

  // The deck's own card names (Kreuz Bube for a French deck) come with the session.
  function labelSelect(sample, labels) {
    const sel = el("select", { "aria-label": "label", onchange: async (ev) => {
      const v = await call("POST", `/enroll/api/session/samples/${sample.id}`, { label: ev.target.value || null });
      if (v) show(v);
    } });
    sel.append(el("option", { value: "" }, t("enroll_unlabelled")));
    for (const l of labels) {
      const o = el("option", { value: l.card }, l.name);
      if (l.card === sample.label) o.selected = true;
      sel.append(o);
    }
    return sel;
  }

  // A flagged pair is shown side by side, as the cards were cut out, so the player sees
  // at once whether one card was photographed twice or two cards were called alike.
  function issueItem(issue, samples) {
    const li = el("li", { class: issue.error ? "error" : "", text: issue.message });
    const shown = (issue.sources || []).map((src) => samples.find((s) => s.source === src)).filter(Boolean);
    if (shown.length) {
      li.append(el("div", { class: "pair" }, ...shown.map((s) => el("figure", {},
        el("img", { src: `/enroll/api/session/samples/${s.id}.png`, alt: s.name || "?" }),
        el("figcaption", { text: s.name || "?" })))));
    }
    return li;
  }

  function show(view) {
    $("session").hidden = false;
    $("new-deck").hidden = true;
    $("session-name").textContent = view.name;
    // The second round (each card again, elsewhere or in other light) is offered, not required.
    const second = view.round > 1;
    const twice = view.cards_twice >= view.cards_total;
    $("cards-progress").value = second ? view.cards_twice : view.cards_done;
    $("cards-count").textContent = `${view.cards_done} / ${view.cards_total}` + (second ? ` · 2×: ${view.cards_twice} / ${view.cards_total}` : "");
    put($("next-cards"), view.next.map((c) => el("li", { text: c.name })));
    $("next-hint").textContent = t(second && !twice ? "enroll_lay_again" : "enroll_lay");
    $("next-hint").hidden = !view.next.length;
    $("all-done").textContent = t(twice ? "enroll_twice_done" : "enroll_all_done");
    $("all-done").hidden = view.cards_done < view.cards_total;
    put($("samples"), view.samples.map((s) => el("figure", { class: s.label ? "" : "unlabelled" },
      el("img", { src: `/enroll/api/session/samples/${s.id}.png`, alt: s.name || "?" }),
      labelSelect(s, view.labels),
      el("button", { type: "button", class: "ghost small", onclick: async () => {
        const v = await call("DELETE", `/enroll/api/session/samples/${s.id}`); if (v) show(v);
      } }, "✕"))));
    put($("missing"), view.missing_names.length ? view.missing_names.join(", ") : "—");
    const b = view.build;
    $("build").hidden = !b;
    if (b) {
      $("build-progress").value = b.fraction;
      const issues = (b.report && b.report.issues) || [];
      put($("report"), [
        ...(b.error ? [el("li", { class: "error", text: b.error })] : []),
        ...issues.map((i) => issueItem(i, view.samples)),
        ...(b.done && b.stored ? [el("li", { text: `${t("enroll_done")}: ${b.stored}` })] : []),
      ]);
      if (!b.done) setTimeout(poll, 700); else loadDecks();
    }
  }

  async function poll() {
    const r = await fetch("/enroll/api/session");
    if (r.ok) show(await r.json());
  }

  function captured(res) {
    if (!res) return;
    $("capture-msg").textContent = `${t("enroll_found")}: ${res.found}` + (res.labelled ? "" : ` — ${t("enroll_count_mismatch")}`);
    show(res.session);
  }

  $("start-form").addEventListener("submit", async (ev) => {
    ev.preventDefault();
    const f = new FormData(ev.target);
    const v = await call("POST", "/enroll/api/session", { name: f.get("name"), suits: f.get("suits") });
    if (v) show(v);
  });
  $("capture")?.addEventListener("click", async () => captured(await call("POST", "/enroll/api/session/capture")));
  $("photo").addEventListener("change", async (ev) => {
    const file = ev.target.files[0];
    if (!file) return;
    const fd = new FormData();
    fd.append("image", file);
    captured(await call("POST", "/enroll/api/session/capture", fd));
    ev.target.value = "";
  });
  $("finish").addEventListener("click", async () => {
    const v = await call("POST", "/enroll/api/session/finish", { activate: $("activate").checked });
    if (v) show(v);
  });
  $("cancel").addEventListener("click", async () => {
    if (await call("DELETE", "/enroll/api/session")) { $("session").hidden = true; $("new-deck").hidden = false; }
  });

  loadDecks();
  poll();
})();
