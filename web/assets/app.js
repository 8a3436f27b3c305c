// The page of `memoria serve --http`: plain JavaScript, no framework and no
// build step. Every view loads its own data from the JSON API when it is
// opened (nothing is computed for views not shown) and every answer cites
// its lines: a citation opens them in the viewer, through /api/get.
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const main = document.getElementById("main");

// h builds an element: h("div.card#id", {attr: v, onclick: f}, child, …).
// Text is always set as text, never parsed as HTML.
function h(spec, attrs, ...kids) {
  const m = spec.match(/^([a-z0-9]+)((?:[.#][\w-]+)*)$/i);
  const el = document.createElement(m[1]);
  for (const part of m[2].match(/[.#][\w-]+/g) || []) {
    if (part[0] === ".") el.classList.add(part.slice(1)); else el.id = part.slice(1);
  }
  setAttrs(el, attrs);
  append(el, kids);
  return el;
}

// s builds an SVG element.
function s(tag, attrs, ...kids) {
  const el = document.createElementNS(SVGNS, tag);
  setAttrs(el, attrs);
  append(el, kids);
  return el;
}

function setAttrs(el, attrs) {
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : v);
  }
}

// fill replaces an element's children, skipping absent ones.
function fill(el, ...kids) {
  el.replaceChildren();
  append(el, kids);
}

function append(el, kids) {
  for (const k of kids.flat(Infinity)) {
    if (k === undefined || k === null || k === false) continue;
    el.append(k instanceof Node ? k : document.createTextNode(String(k)));
  }
}

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const res = await fetch(path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = {error: res.status + " " + res.statusText}; }
  if (!res.ok) throw new Error(data.error || res.statusText);
  return data;
}

function qs(params) {
  const u = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== "") u.set(k, v);
  return u.toString();
}

function toast(msg) {
  const t = h("div.toast", {role: "status", text: msg});
  document.body.append(t);
  setTimeout(() => t.remove(), 4000);
}

function errorBox(err) { return h("div.error", {role: "alert", text: String(err.message || err)}); }

// cite is a citation link: it opens the cited lines in the viewer.
function cite(ref, label) {
  return h("a.cite", {href: "#", "data-ref": ref, title: "open " + ref,
    onclick: (e) => { e.preventDefault(); openCitation(ref); }}, label || ref);
}

async function openCitation(ref) {
  const v = document.getElementById("viewer");
  const list = document.getElementById("viewer-lines");
  const note = document.getElementById("viewer-note");
  document.getElementById("viewer-title").textContent = ref;
  note.textContent = "loading…";
  fill(list);
  v.hidden = false;
  v.removeAttribute("data-loaded");
  try {
    const d = await api("/api/get?" + qs({ref}));
    note.textContent = d.path + " · " + d.file_lines + " lines" + (d.clipped ? " · the range runs past the end of the file" : "");
    for (const l of d.lines) {
      list.append(h("li" + (l.cited ? ".cited" : ""), {"data-n": l.n}, h("span.n", {text: l.n}), h("span.t", {text: l.text})));
    }
    v.setAttribute("data-loaded", d.source);
    const first = list.querySelector(".cited");
    if (first) first.scrollIntoView({block: "nearest"});
  } catch (err) {
    fill(note, errorBox(err));
  }
}

document.getElementById("viewer-close").addEventListener("click", () => {
  document.getElementById("viewer").hidden = true;
});

function entityLink(slug) {
  return h("a.entity", {href: "#entity/" + encodeURIComponent(slug)}, "@" + slug);
}

function kindBadge(kind) { return h("span.kind." + kind, {text: kind}); }

function eventText(ev) {
  if (!ev) return "";
  return ev.start === ev.end ? ev.start : ev.start + " – " + ev.end;
}

// resultCard shows one cited result as recall returns it.
function resultCard(r, opts) {
  opts = opts || {};
  const meta = h("div.meta", {}, kindBadge(r.kind),
    r.confidence !== undefined && r.confidence !== null ? h("span", {text: "c=" + r.confidence.toFixed(2)}) : null,
    r.timestamp ? h("span", {text: "written " + r.timestamp}) : null,
    r.event_time && (r.event_time.start !== r.timestamp || r.event_time.end !== r.timestamp) ? h("span", {text: "event " + eventText(r.event_time)}) : null,
    (r.entities || []).map(entityLink),
    opts.score && r.score !== undefined ? h("span", {text: "score " + r.score.toFixed(3)}) : null);
  const links = h("div.links");
  links.append(h("div", {}, cite(r.source)));
  for (const a of r.also || []) links.append(h("div", {}, "also written at ", cite(a)));
  for (const l of r.superseded_by || []) links.append(h("div.note", {}, "superseded by ", cite(l.source)));
  for (const l of r.supersedes || []) links.append(h("div", {}, "supersedes ", cite(l.source)));
  const card = h("div.card.result" + ((r.superseded_by || []).length ? ".superseded" : ""), {"data-id": r.id, "data-source": r.source},
    meta, h("div.content", {text: r.content}),
    r.truncated ? h("div.note", {text: "… " + r.truncated + " more bytes: open the citation"}) : null,
    links);
  if (r.explain) card.append(explainBox(r));
  return card;
}

// explainBox is the breakdown `memoria recall --explain` prints: the score,
// the ranker's score, each channel's rank, and what each feature added to
// the score, largest first.
function explainBox(r) {
  const x = r.explain;
  const names = Object.keys(x.channels || {}).sort((a, b) => (x.channels[a] - x.channels[b]) || a.localeCompare(b));
  const rows = names.map((n) => h("tr", {}, h("td", {text: n}), h("td", {text: x.channels[n]})));
  const feats = Object.entries(x.features || {})
    .sort(([a, v], [b, w]) => (Math.abs(w) - Math.abs(v)) || a.localeCompare(b))
    .map(([k, v]) => k.replaceAll("_", " ") + " " + (v >= 0 ? "+" : "") + Number(v.toPrecision(3)));
  return h("details.explain", {}, h("summary", {text: "why this rank"}),
    h("div.why", {},
      h("div", {text: "score " + r.score.toFixed(3) + " (ranker " + (x.fused || 0).toFixed(3) + ")"}),
      rows.length ? h("table", {}, h("tr", {}, h("th", {text: "channel"}), h("th", {text: "rank"})), rows) : null,
      feats.length ? h("div", {text: "features: " + feats.join(", ")}) : null));
}

// ---------------------------------------------------------------- search

function viewSearch(params) {
  const f = h("form.bar#search-form", {role: "search"});
  const field = (name, label, attrs) => h("label", {}, label, h("input#" + name, Object.assign({type: "text", name, value: params.get(name) || ""}, attrs || {})));
  const kind = h("select#kind", {name: "kind"}, ["", "world", "experience", "opinion", "observation", "passage"].map((k) => {
    const o = h("option", {value: k, text: k || "any kind"});
    if ((params.get("kind") || "") === k) o.selected = true;
    return o;
  }));
  f.append(h("label", {}, "query", h("input#q", {type: "search", name: "q", value: params.get("q") || "", placeholder: "what does Peter prefer?", autofocus: true})),
    field("since", "since", {placeholder: "30d, 2025-11-01", size: 10}),
    field("until", "until", {placeholder: "last week", size: 10}),
    field("entity", "entity", {placeholder: "Pete", size: 10}),
    h("label", {}, "kind", kind),
    field("now", "now", {placeholder: "YYYY-MM-DD", size: 10, title: "treat this day as today (relative times)"}),
    h("button.primary", {type: "submit", text: "Search"}));
  const out = h("div#results");
  f.addEventListener("submit", (e) => {
    e.preventDefault();
    const p = {};
    for (const el of f.elements) if (el.name && el.value) p[el.name] = el.value;
    location.hash = "search?" + qs(p);
  });
  fill(main, h("h2", {text: "Search"}), f, out);
  const q = params.get("q");
  const anyFilter = ["since", "until", "entity", "kind"].some((k) => params.get(k));
  if (!q && !anyFilter) {
    out.append(h("p.muted", {text: "Ask memory a question, as with memoria recall. Each answer cites its lines; click a citation to read them."}));
    return;
  }
  out.append(h("p.muted", {text: "searching…"}));
  const p = {q, k: 25};
  for (const k of ["since", "until", "entity", "kind", "now"]) p[k] = params.get(k);
  api("/api/recall?" + qs(p)).then((d) => {
    fill(out, h("p.muted#result-count", {text: d.results.length + " results" + (d.lexical_only ? " (lexical only: " + d.lexical_only + ")" : "")}),
      ...d.results.map((r) => resultCard(r, {score: true})));
  }).catch((err) => fill(out, errorBox(err)));
}

// ---------------------------------------------------------------- timeline

function dayNum(d) { return Date.UTC(+d.slice(0, 4), +d.slice(5, 7) - 1, +d.slice(8, 10)) / 86400000; }

function viewTimeline() {
  const out = h("div#timeline");
  const more = h("button#older", {type: "button", text: "older days", hidden: true});
  fill(main, h("h2", {text: "Timeline"}),
    h("p.muted", {text: "The days that have a daily log, newest first, with the facts retained on each; bars are the events those facts date (their event time)."}),
    out, more);
  let before = "";
  const load = () => {
    more.disabled = true;
    api("/api/timeline?" + qs({before, days: 14})).then((d) => {
      if (!before && d.days.length === 0) out.append(h("p.muted", {text: "No daily logs yet (memory/YYYY-MM-DD.md)."}));
      if (d.days.length) out.append(eventChart(d));
      for (const day of d.days) {
        out.append(h("section.day", {"data-day": day.day},
          h("h3", {}, h("span", {text: day.day}), (day.logs || [day.log]).map((l) => cite(l, l)),
            h("span.muted", {text: day.retained.length ? day.retained.length + " retained" : "no Retain section"})),
          day.retained.map((r) => resultCard(r))));
      }
      if (d.truncated) out.append(h("p.note", {text: "Some facts of these days are left out: there are more than a page holds."}));
      before = d.older || "";
      more.hidden = !before;
      more.disabled = false;
    }).catch((err) => out.append(errorBox(err)));
  };
  more.addEventListener("click", load);
  load();
}

// eventChart draws, over a page's days, a bar for each fact with an event
// time (a range, or a single day), each a link to its lines.
function eventChart(d) {
  const lo = dayNum(d.days[d.days.length - 1].day), hi = dayNum(d.days[0].day);
  const evs = [];
  for (const day of d.days) for (const r of day.retained) if (r.event_time) evs.push(r);
  for (const r of d.events) evs.push(r);
  const span = Math.max(1, hi - lo + 1), W = 760, left = 10, right = 10, rowH = 16, top = 22;
  const x = (n) => left + (Math.min(Math.max(n, lo), hi + 1) - lo) / span * (W - left - right);
  const rows = evs.slice(0, 40);
  const H = top + rows.length * rowH + 10;
  const svg = s("svg", {class: "events", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "event ranges"});
  svg.append(s("line", {class: "axis", x1: left, x2: W - right, y1: top - 6, y2: top - 6}));
  svg.append(s("text", {x: left, y: 12, text: d.days[d.days.length - 1].day}));
  svg.append(s("text", {x: W - right, y: 12, "text-anchor": "end", text: d.days[0].day}));
  rows.forEach((r, i) => {
    const a = dayNum(r.event_time.start), b = dayNum(r.event_time.end) + 1;
    const x1 = x(a), x2 = Math.max(x(b), x1 + 3);
    const link = s("a", {href: "#", class: "event", "data-ref": r.source});
    link.addEventListener("click", (e) => { e.preventDefault(); openCitation(r.source); });
    link.append(s("rect", {class: "bar", x: x1, y: top + i * rowH, width: x2 - x1, height: rowH - 4, rx: 2},
      s("title", {text: eventText(r.event_time) + ": " + r.content + " (" + r.source + ")"})));
    const label = r.content.replace(/\s+/g, " ").slice(0, 70);
    // The label goes right of the bar, else left of it, else over it.
    const width = label.length * 6;
    const [lx, anchor] = x2 + 4 + width < W ? [x2 + 4, "start"] : x1 - 4 - width > 0 ? [x1 - 4, "end"] : [x1 + 4, "start"];
    link.append(s("text", {x: lx, y: top + i * rowH + 10, "text-anchor": anchor, text: label}));
    svg.append(link);
  });
  const box = h("div.plot", {}, svg);
  if (!rows.length) box.append(h("p.muted", {text: "No fact of these days names an event time."}));
  if (evs.length > rows.length) box.append(h("p.muted", {text: (evs.length - rows.length) + " more events not drawn"}));
  return box;
}

// ---------------------------------------------------------------- entities

function viewEntities() {
  const list = h("ul.plain#entity-list");
  const filter = h("input#entity-filter", {type: "search", placeholder: "filter by name"});
  const graph = h("div#graph.plot", {}, h("p.muted", {text: "loading the graph…"}));
  fill(main, h("h2", {text: "Entities"}),
    h("div.cols", {}, h("div", {}, filter, h("p.muted#entity-total"), list),
      h("div", {}, h("h3", {text: "Which entities the facts name together"}), graph)));
  let timer = 0;
  const load = () => api("/api/entities?" + qs({q: filter.value, limit: 200})).then((d) => {
    document.getElementById("entity-total").textContent = d.total + " entities, most mentioned first" + (d.entities.length < d.total ? "; " + d.entities.length + " shown" : "");
    fill(list, ...d.entities.map((e) => h("li", {}, h("a", {href: "#entity/" + encodeURIComponent(e.slug), text: e.name}),
      h("span.muted", {text: e.items + " items" + (e.last_seen && !e.last_seen.startsWith("0001") ? " · " + e.last_seen.slice(0, 10) : "")}))));
  }).catch((err) => fill(list, errorBox(err)));
  filter.addEventListener("input", () => { clearTimeout(timer); timer = setTimeout(load, 150); });
  load();
  api("/api/graph?n=30").then((g) => fill(graph, graphSVG(g.nodes.map((n) => n.slug), g.edges, null),
    h("p.muted", {text: g.edges.length + " pairs among the " + g.nodes.length + " most mentioned entities, from " + g.facts + " facts; a thicker line is more facts."})))
    .catch((err) => fill(graph, errorBox(err)));
}

// graphSVG draws entities on a circle, an edge per pair named together,
// each node a link to its entity.
function graphSVG(slugs, edges, focus) {
  const W = 520, H = 420, cx = W / 2, cy = H / 2, R = Math.min(W, H) / 2 - 60;
  const pos = {};
  slugs.forEach((sl, i) => {
    const a = 2 * Math.PI * i / slugs.length - Math.PI / 2;
    pos[sl] = sl === focus ? [cx, cy] : [cx + R * Math.cos(a), cy + R * Math.sin(a)];
  });
  const max = Math.max(1, ...edges.map((e) => e.facts));
  const svg = s("svg", {class: "graph", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "entity graph"});
  for (const e of edges) {
    const p = pos[e.a], q = pos[e.b];
    if (!p || !q) continue;
    svg.append(s("line", {class: "edge", x1: p[0], y1: p[1], x2: q[0], y2: q[1], "stroke-width": 1 + 5 * e.facts / max},
      s("title", {text: `${e.a} & ${e.b}: ${e.facts} facts`})));
  }
  for (const sl of slugs) {
    const [x, y] = pos[sl];
    const a = s("a", {href: "#entity/" + encodeURIComponent(sl), class: "gnode", "data-slug": sl});
    a.append(s("circle", {class: "node" + (sl === focus ? " focus" : ""), cx: x, cy: y, r: 7}, s("title", {text: sl})));
    a.append(s("text", {x: x + (x >= cx ? 10 : -10), y: y + 4, "text-anchor": x >= cx ? "start" : "end", text: sl}));
    svg.append(a);
  }
  return svg;
}

function viewEntity(name) {
  fill(main, h("p.muted", {text: "loading " + name + "…"}));
  api("/api/entity?" + qs({name})).then((r) => {
    const byID = {};
    for (const x of [...r.timeline, ...r.current, ...r.opinions]) byID[x.id] = x;
    const superseded = r.timeline.filter((x) => (x.superseded_by || []).length);
    const sec = (title, id, kids, empty) => h("section#" + id, {}, h("h3", {text: title}), kids.length ? kids : h("p.muted", {text: empty}));
    fill(main,
      h("h2#entity-name", {text: r.name}),
      h("p.muted", {}, "@" + r.slug, r.aliases.length ? " · also known as " + r.aliases.join(", ") : ""),
      h("div.cols", {},
        h("div", {},
          sec("Page", "entity-page", r.page.map((x) => resultCard(x)), "No page (bank/entities/" + r.slug + ".md)."),
          sec("Named together with", "entity-neighbours", r.neighbours.length ? [graphSVG([r.slug, ...r.neighbours.slice(0, 16).map((n) => n.slug)],
            r.neighbours.slice(0, 16).map((n) => ({a: r.slug, b: n.slug, facts: n.facts})), r.slug)] : [], "No other entity in its facts.")),
        h("div", {},
          sec("Current facts", "entity-current", r.current.map((x) => resultCard(x)), "No current world fact or observation."),
          sec("Superseded, and what replaced them", "entity-superseded", superseded.map((x) => h("div.card.pair", {},
            resultCard(x), (x.superseded_by || []).map((l) => h("div", {}, h("div.meta", {text: "replaced by"}),
              byID[l.id] ? resultCard(byID[l.id]) : h("div", {}, cite(l.source)))))), "Nothing superseded."),
          sec("Opinions", "entity-opinions", r.opinions.map((x) => resultCard(x)), "No opinion."),
          sec("Timeline", "entity-timeline", r.timeline.map((x) => resultCard(x)), "No dated fact."))));
  }).catch((err) => fill(main, errorBox(err), h("p", {}, h("a", {href: "#entities", text: "all entities"}))));
}

// ---------------------------------------------------------------- opinions

function viewOpinions() {
  const out = h("div#opinions");
  fill(main, h("h2", {text: "Opinions"}),
    h("p.muted", {text: "Beliefs of bank/opinions.md. The line is the confidence reflect recorded at each piece of evidence (its note says c before->after); marks below are the evidence, green supporting and red contradicting. Hand-written evidence has no recorded change."}),
    out);
  api("/api/opinions").then((d) => {
    if (!d.opinions.length) { out.append(h("p.muted", {text: "No opinions yet: memoria reflect writes them from the O facts of the logs."})); return; }
    if (d.total > d.opinions.length) out.append(h("p.note", {text: d.opinions.length + " of " + d.total + " shown"}));
    for (const o of d.opinions) {
      out.append(h("div.card.opinion", {"data-source": o.source},
        h("div.meta", {}, kindBadge("opinion"), o.confidence !== undefined ? h("span", {text: "c=" + o.confidence.toFixed(2)}) : null,
          o.last_updated ? h("span", {text: "last updated " + o.last_updated}) : null, o.entities.map(entityLink)),
        h("div.content", {text: o.statement}), h("div.links", {}, cite(o.source)),
        h("div.plot", {}, confidencePlot(o)),
        h("details", {}, h("summary", {text: o.steps.length + " pieces of evidence" + (o.superseded.length ? ", " + o.superseded.length + " former statements" : "")}),
          h("ul.plain.evidence", {}, o.steps.map((st) => h("li", {},
            h("span", {}, h("span." + (st.supports ? "sup" : "con"), {text: st.supports ? "supports" : "contradicts"}), " ", st.day || "", " ",
              st.note ? h("span.muted", {text: "(" + st.note + ")"}) : null),
            st.source ? cite(st.source) : h("span.mono", {text: st.fact_id})))),
          o.superseded.map((f) => h("div.card.superseded", {}, h("div.meta", {text: "former statement" + (f.until ? ", until " + f.until : "")}),
            h("div.content", {text: f.text}), f.sources.map((x) => cite(x)))))));
    }
  }).catch((err) => out.append(errorBox(err)));
}

// confidencePlot draws an opinion's confidence over time: a point before and
// after each recorded change, the current value at its last update, and a
// mark per piece of evidence on the day of its log.
function confidencePlot(o) {
  const pts = [];
  for (const st of o.steps) {
    if (!st.day) continue;
    if (st.before !== undefined) pts.push([st.day, st.before]);
    if (st.after !== undefined) pts.push([st.day, st.after]);
    if (st.flip_to !== undefined) pts.push([st.day, st.flip_to]);
  }
  if (o.confidence !== undefined && o.last_updated) pts.push([o.last_updated, o.confidence]);
  const days = [...pts.map((p) => p[0]), ...o.steps.filter((st) => st.day).map((st) => st.day)].sort();
  const W = 560, H = 150, L = 34, R = 12, T = 10, B = 34;
  const svg = s("svg", {class: "confidence", width: W, height: H, viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": "confidence over time"});
  if (!days.length) { svg.append(s("text", {x: L, y: H / 2, text: "no dated evidence"})); return svg; }
  const lo = dayNum(days[0]), hi = Math.max(dayNum(days[days.length - 1]), lo + 1);
  const x = (d) => L + (dayNum(d) - lo) / (hi - lo) * (W - L - R);
  const y = (c) => T + (1 - c) * (H - T - B);
  for (const c of [0, 0.5, 1]) {
    svg.append(s("line", {class: "grid", x1: L, x2: W - R, y1: y(c), y2: y(c)}));
    svg.append(s("text", {x: L - 4, y: y(c) + 4, "text-anchor": "end", text: c.toFixed(1)}));
  }
  svg.append(s("text", {x: L, y: H - 4, text: days[0]}));
  svg.append(s("text", {x: W - R, y: H - 4, "text-anchor": "end", text: days[days.length - 1]}));
  if (pts.length) {
    svg.append(s("polyline", {class: "conf", points: pts.map((p) => x(p[0]).toFixed(1) + "," + y(p[1]).toFixed(1)).join(" ")}));
    for (const p of pts) svg.append(s("circle", {class: "pt", cx: x(p[0]), cy: y(p[1]), r: 2.5}, s("title", {text: p[0] + ": c=" + p[1]})));
  }
  const base = H - B + 6;
  for (const st of o.steps) {
    if (!st.day) continue;
    const px = x(st.day);
    const mark = s("a", {href: "#", class: "ev", "data-ref": st.source || ""});
    mark.addEventListener("click", (e) => { e.preventDefault(); if (st.source) openCitation(st.source); });
    mark.append(s("path", {class: st.supports ? "sup" : "con", d: st.supports ? `M${px - 4},${base + 8} L${px + 4},${base + 8} L${px},${base} Z` : `M${px - 4},${base} L${px + 4},${base} L${px},${base + 8} Z`},
      s("title", {text: (st.supports ? "supports " : "contradicts ") + (st.source || st.fact_id) + (st.note ? " (" + st.note + ")" : "")})));
    svg.append(mark);
  }
  return svg;
}

// ---------------------------------------------------------------- review

function viewReview() {
  const retain = h("section#retain-queue");
  const core = h("section#core-queue");
  fill(main, h("h2", {text: "Review"}), retain, core);
  const load = () => api("/api/proposals").then((d) => {
    renderRetain(retain, d.retain, load);
    renderCore(core, d.core, load);
  }).catch((err) => main.append(errorBox(err)));
  load();
}

function decide(btns, path, body, done) {
  btns.forEach((b) => { b.disabled = true; });
  api(path, body).then((r) => { toast(summary(r)); done(); })
    .catch((err) => { btns.forEach((b) => { b.disabled = false; }); toast(err.message); });
}

function summary(r) {
  if (r.accepted && Array.isArray(r.accepted)) return "accepted into " + r.accepted.map((a) => a.source).join(", ") + (r.skipped.length ? "; already there: " + r.skipped.length : "");
  if (r.accepted) return "appended to " + r.block + " in " + r.core;
  if (r.rejected) return "rejected " + r.rejected;
  if (r.added !== undefined) return r.added + " new proposals from " + r.logs + " logs";
  return "done";
}

function renderRetain(box, q, reload) {
  const infer = h("button#infer", {type: "button", text: "Propose facts (retain --infer)",
    title: "read the logs that have no Retain section and propose facts for review (offline heuristics)"});
  infer.addEventListener("click", () => decide([infer], "/api/infer", {}, reload));
  fill(box, h("h3", {text: "Inferred facts" + (q.total ? " (" + q.total + " waiting)" : "")}),
    h("p.muted", {}, "Facts proposed for logs without a Retain section, waiting in " + q.file + ". Accept moves the fact (and any other you ticked in the file) into its log's Retain section, as ", h("code", {text: "memoria retain --accept"}), "; reject removes it. ", infer),
    q.total ? null : h("p.muted", {text: "Nothing to review."}),
    q.total > q.items.length ? h("p.note", {text: q.items.length + " of " + q.total + " shown"}) : null);
  for (const p of q.items) {
    const ok = h("button.accept", {type: "button", text: "Accept"});
    const no = h("button.reject", {type: "button", text: "Reject"});
    ok.addEventListener("click", () => decide([ok, no], "/api/proposals/retain/accept", {id: p.id}, reload));
    no.addEventListener("click", () => decide([ok, no], "/api/proposals/retain/reject", {id: p.id}, reload));
    box.append(h("div.card.proposal.retain", {"data-id": p.id},
      h("div.body", {}, h("div.content", {text: p.fact}), h("div.links", {}, "from ", cite(p.source), p.ticked ? h("span.note", {text: " ticked"}) : null)),
      h("div.actions", {}, ok, no)));
  }
}

function renderCore(box, q, reload) {
  fill(box, h("h3", {text: "Core-memory proposals" + (q.open ? " (" + q.open + " open)" : "")}),
    h("p.muted", {text: "Lines memoria reflect proposes for " + q.core + " (in " + q.file + "). Accept appends the text to its block as memoria core append does; reject marks it [-], so that reflect does not propose it again."}),
    q.total ? null : h("p.muted", {text: "No proposals: memoria reflect makes them when a fact recurs on 3 days."}));
  for (const p of q.items) {
    const open = p.state === "open";
    const text = p.block !== "Stale" ? h("input.text", {type: "text", value: p.text, disabled: !open, "aria-label": "text to append"}) : null;
    const ok = h("button.accept", {type: "button", text: "Accept", disabled: !open || p.block === "Stale",
      title: p.block === "Stale" ? "a stale line needs an edit of " + q.core + " (memoria core replace); then reject this" : ""});
    const no = h("button.reject", {type: "button", text: "Reject", disabled: !open});
    ok.addEventListener("click", () => decide([ok, no], "/api/proposals/core/accept", {id: p.id, text: text ? text.value : ""}, reload));
    no.addEventListener("click", () => decide([ok, no], "/api/proposals/core/reject", {id: p.id}, reload));
    box.append(h("div.card.proposal.core" + (open ? "" : ".done"), {"data-id": p.id, "data-state": p.state},
      h("div.body", {}, h("div.meta", {}, h("span.kind", {text: p.block}), h("span", {text: p.state})),
        h("div.content", {text: p.proposal}), text, h("div.links", {}, p.sources.map((x) => h("div", {}, cite(x))))),
      h("div.actions", {}, ok, no)));
  }
}

// ---------------------------------------------------------------- router

function route() {
  const raw = location.hash.slice(1) || "search";
  const [path, query] = raw.split("?");
  const params = new URLSearchParams(query || "");
  const view = path.split("/")[0];
  for (const a of document.querySelectorAll("#nav a")) a.classList.toggle("active", a.dataset.view === (view === "entity" ? "entities" : view));
  document.body.dataset.view = view;
  switch (view) {
    case "timeline": viewTimeline(); break;
    case "entities": viewEntities(); break;
    case "entity": viewEntity(decodeURIComponent(path.slice("entity/".length))); break;
    case "opinions": viewOpinions(); break;
    case "review": viewReview(); break;
    default: viewSearch(params);
  }
}

function loadStatus() {
  api("/api/status").then((st) => {
    const facts = Object.values(st.facts || {}).reduce((a, b) => a + b, 0);
    document.getElementById("status").textContent = st.workspace + " · " + facts + " facts, " + st.passages + " passages, " +
      st.entities + " entities" + (st.first_day ? " · " + st.first_day + " to " + st.last_day : "");
  }).catch((err) => { document.getElementById("status").textContent = String(err.message); });
}

window.addEventListener("hashchange", route);
route();
loadStatus();
